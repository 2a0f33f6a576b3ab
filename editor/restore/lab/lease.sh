#!/usr/bin/env bash
# A GPU lease in one command: move the encoder family forward for SECONDS (default 500, inside a
# 9-minute lease) and leave the run in $OUT/run for `stet train --family encoder --out RUN --export`.
#
#   python -m editor.restore.lab.lease pack            # here, once: .gpu/ (text as xz, wheels)
#   bash editor/restore/lab/lease.sh 500 [MODEL_DIR]   # there, with .gpu carried
#
# It starts from MODEL_DIR (default: the shipped encoder model), so each lease continues the last
# exported model; the run folder it leaves resumes with `--resume RUN` where it can be carried.
# EXTRA (options of train_encoder) defaults to what moved the shipped model last (its card's stage 3:
# a quarter of the first run's peak learning rates, mostly TED); EXTRA="" trains with the defaults
# of a first run, whose high peaks undo an annealed model's last steps before they help.
set -uo pipefail
SECS=${1:-500}
FROM=${2:-resources/models/stet-en-minilm-bilstm-crf}
OUT=${OUT:-/tmp/stet-lease-out}
D=/tmp/stetdata
CONTINUE="--lr 2e-5 --head-lr 2.5e-4 --sources ted_saranyan=0.85,scotus_oyez_2010plus=0.1,presidential_speeches=0.05"
mkdir -p "$D/train" "$D/dev" "$OUT/run"
for f in .gpu/data/train/*.xz; do (xz -dc "$f" | gzip -1 > "$D/train/$(basename "$f" .xz).gz") & done
xz -dc .gpu/data/dev/dev2012.tsv.xz > "$D/dev/dev2012.tsv"
wait
export PYTHONPATH="$PWD:$PWD/.gpu/site" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv 2>/dev/null
${PY:-python3} -m editor.restore.lab.train_encoder --from-model "$FROM" --data "$D" --out "$OUT/run" \
  --seconds "$SECS" --device "${DEVICE:-cuda}" --eval-seconds "${EVAL_EVERY:-90}" ${EXTRA-$CONTINUE} 2>&1 | tee "$OUT/train.log"
ls -la "$OUT/run"
