#!/usr/bin/env bash
# Package the PyInstaller folder (packaging/stet.spec) as a tarball and a Debian package.
#   packaging/build-deb.sh BUNDLE_DIR OUT_DIR VERSION HOMEPAGE MAINTAINER
# The .deb installs the bundle under /opt/stet, `stet` on the PATH (/usr/bin/stet), the desktop
# entry, hicolor icons (the SVG and PNGs drawn from it with rsvg-convert), the MIME type of Stet
# projects and the AppStream metainfo. dpkg's triggers of desktop-file-utils, shared-mime-info and
# hicolor-icon-theme refresh their caches on install, so no maintainer scripts are needed.
set -euo pipefail
bundle=$1 out=$2 version=$3 homepage=$4 maintainer=$5
here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(cd "$here/.." && pwd)
app_id=org.stet_editor.Stet
arch=$(dpkg --print-architecture)

[ -x "$bundle/stet" ] || { echo "no bundle at $bundle (run pyinstaller first)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/stet-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# --- the tarball: the bundle folder as it is, named stet-VERSION ---
tarball="$out/stet-$version-linux-$(uname -m).tar.gz"
tar -C "$(dirname "$bundle")" --transform "s|^$(basename "$bundle")|stet-$version|" \
    --owner=0 --group=0 -czf "$tarball.tmp" "$(basename "$bundle")"
mv "$tarball.tmp" "$tarball"

# --- the Debian package tree ---
pkg="$stage/root"
mkdir -p "$pkg/DEBIAN" "$pkg/opt" "$pkg/usr/bin" "$pkg/usr/share/applications" \
    "$pkg/usr/share/metainfo" "$pkg/usr/share/mime/packages" "$pkg/usr/share/doc/stet" \
    "$pkg/usr/share/icons/hicolor/scalable/apps"
cp -a "$bundle" "$pkg/opt/stet"
# Relative, so it also resolves in a tree unpacked elsewhere (dpkg-deb -x).
ln -s ../../opt/stet/stet "$pkg/usr/bin/stet"
install -m 644 "$here/$app_id.desktop" "$pkg/usr/share/applications/$app_id.desktop"
install -m 644 "$here/$app_id.mime.xml" "$pkg/usr/share/mime/packages/$app_id.xml"
sed -e "s|@HOMEPAGE@|${homepage%/}|g" -e "s|@VERSION@|$version|g" -e "s|@DATE@|$(date -u +%F)|g" \
    "$here/$app_id.metainfo.xml.in" > "$pkg/usr/share/metainfo/$app_id.metainfo.xml"
chmod 644 "$pkg/usr/share/metainfo/$app_id.metainfo.xml"
install -m 644 "$root_dir/resources/icons/stet.svg" \
    "$pkg/usr/share/icons/hicolor/scalable/apps/$app_id.svg"
for size in 16 22 24 32 48 64 128 256 512; do
    dir="$pkg/usr/share/icons/hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    rsvg-convert -w "$size" -h "$size" -o "$dir/$app_id.png" "$root_dir/resources/icons/stet.svg"
done
install -m 644 "$root_dir/README.md" "$pkg/usr/share/doc/stet/README.md"
# README links into docs/: the pages go with it, so its links resolve in /usr/share/doc/stet too.
install -d "$pkg/usr/share/doc/stet/docs"
install -m 644 "$root_dir"/docs/*.md "$pkg/usr/share/doc/stet/docs/"

# The licences, in Debian's machine-readable format (the last stanza that matches a file is its):
# the code under Apache-2.0 (its text is base-files' /usr/share/common-licenses/Apache-2.0), the
# bundled libraries under theirs, the shipped model's weights under the non-commercial terms of
# their training text (each model card's "Licence").
cat > "$pkg/usr/share/doc/stet/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Stet
Upstream-Contact: $maintainer
Source: ${homepage%/}

Files: *
Copyright: The Stet authors
License: Apache-2.0

Files: opt/stet/_internal/*
Copyright: Their authors
License: LicenseRef-bundled-libraries
 The bundle carries Python, PySide6 and Qt (LGPL-3.0), PyTorch (BSD-3-Clause),
 Vosk (Apache-2.0), FFmpeg through PyAV (LGPL-2.1+), NumPy and other libraries,
 each under its own licence; Help > About Stet lists the libraries Stet uses.

Files: opt/stet/_internal/resources/*
Copyright: The Stet authors
License: Apache-2.0

Files: opt/stet/_internal/resources/models/*
Copyright: The Stet authors
License: LicenseRef-weights-non-commercial
 The restoration models' weights were trained on TED talk transcripts
 (CC BY-NC-ND 4.0, TED) and US Supreme Court oral arguments (CC BY-NC, Oyez),
 with public-domain text, and inherit those sources' non-commercial terms: they
 may be used and shared for non-commercial purposes only, with the sources
 credited. Each model's MODEL_CARD.md, in its folder, lists every source.

Files: opt/stet/_internal/resources/models/stet-en-open-minilm-bilstm-crf/*
Copyright: The Stet authors; the all-MiniLM-L6-v2 encoder: the sentence-transformers authors
License: Apache-2.0
 The open restoration model: its BiLSTM-CRF and heads were trained on
 public-domain text only (US presidential speeches, Project Gutenberg novels,
 LJ Speech texts); its encoder is the published all-MiniLM-L6-v2 (Apache-2.0),
 unchanged. It may be used for any purpose, paid work included. Its
 MODEL_CARD.md lists every source.

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this software except in compliance with the License.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
EOF
chmod 644 "$pkg/usr/share/doc/stet/copyright"
install -m 644 "$root_dir/LICENSE" "$pkg/usr/share/doc/stet/LICENSE"

installed_kb=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
# The bundle carries Python, torch, Qt and FFmpeg; what it takes from the system is glibc (it was
# built against this machine's), the X11/OpenGL libraries Qt's xcb platform opens, and PortAudio.
glibc=$(dpkg-query -W -f='${Version}' libc6 | cut -d- -f1)
cat > "$pkg/DEBIAN/control" <<EOF
Package: stet
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_kb
Depends: libc6 (>= $glibc), libportaudio2, libgl1, libegl1, libfontconfig1, libfreetype6, libdbus-1-3, libxkbcommon0, libxkbcommon-x11-0, libxcb-cursor0, libxcb-icccm4, libxcb-image0, libxcb-keysyms1, libxcb-randr0, libxcb-render-util0, libxcb-shape0, libxcb-xinerama0, libxcb-xkb1
Recommends: hicolor-icon-theme, shared-mime-info, desktop-file-utils
Section: editors
Priority: optional
Homepage: ${homepage%/}
Description: transcript editor that restores punctuation and capitals
 Stet opens a transcript from speech recognition (Vosk, Whisper), subtitles
 or plain text, restores its punctuation and capitals with a neural model that
 runs locally, and shows every proposed mark with the confidence behind it, so
 the doubtful ones are reviewed instead of re-reading everything. Recordings
 are transcribed with Vosk models. Self-contained build (Python, CPU torch, Qt)
 under /opt/stet.
EOF
deb="$out/stet_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zgzip --build "$pkg" "$deb.tmp" >/dev/null
mv "$deb.tmp" "$deb"
echo "bundle:  $(du -sh "$bundle" | cut -f1)  $bundle"
echo "tarball: $(du -h "$tarball" | cut -f1)  $tarball"
echo "deb:     $(du -h "$deb" | cut -f1)  $deb"
