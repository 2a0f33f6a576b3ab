"""A linear-chain CRF with log-likelihood, Viterbi decoding and true marginals.

Shapes: emissions (B, T, K) float, tags (B, T) long, mask (B, T) bool with each row a prefix of
True values (the first position always on). The confidence Stet shows is a marginal
probability from forward-backward (alpha + beta - log Z), not a softmax of Viterbi scores.
"""

from __future__ import annotations

import torch
from torch import nn


class CRF(nn.Module):
    def __init__(self, num_tags: int) -> None:
        super().__init__()
        if num_tags <= 0:
            raise ValueError(f"num_tags must be positive, got {num_tags}")
        self.num_tags = num_tags
        # transitions[i, j]: score of tag j following tag i
        self.transitions = nn.Parameter(torch.zeros(num_tags, num_tags))
        self.start = nn.Parameter(torch.zeros(num_tags))
        self.end = nn.Parameter(torch.zeros(num_tags))
        nn.init.uniform_(self.transitions, -0.1, 0.1)

    # ------------------------------------------------------------ checks
    def _check(self, emissions: torch.Tensor, mask: torch.Tensor | None, tags: torch.Tensor | None = None) -> torch.Tensor:
        if emissions.dim() != 3 or emissions.size(2) != self.num_tags:
            raise ValueError(f"emissions must be (B, T, {self.num_tags}), got {tuple(emissions.shape)}")
        B, T, _ = emissions.shape
        if T == 0:
            raise ValueError("emissions must have at least one time step")
        if mask is None:
            mask = torch.ones(B, T, dtype=torch.bool, device=emissions.device)
        if mask.dtype != torch.bool or mask.shape != (B, T):
            raise ValueError(f"mask must be torch.bool of shape {(B, T)}, got {mask.dtype} {tuple(mask.shape)}")
        if not bool(mask[:, 0].all()):
            raise ValueError("mask must be on at the first time step of every sequence")
        if tags is not None and tags.shape != (B, T):
            raise ValueError(f"tags must be of shape {(B, T)}, got {tuple(tags.shape)}")
        return mask

    # ------------------------------------------------------------ scores
    def _path_score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        B, T, K = emissions.shape
        maskf = mask.to(emissions.dtype)
        # shape: (B, T)
        emit = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)
        score = self.start[tags[:, 0]] + (emit * maskf).sum(1)
        if T > 1:
            trans = self.transitions[tags[:, :-1], tags[:, 1:]]  # (B, T-1)
            score = score + (trans * maskf[:, 1:]).sum(1)
        last = mask.long().sum(1) - 1
        score = score + self.end[tags.gather(1, last.unsqueeze(1)).squeeze(1)]
        return score

    def _forward_alphas(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """alpha (B, T, K): log-sum of all prefixes ending in each tag (carried over masked steps)."""
        B, T, K = emissions.shape
        alphas = [self.start + emissions[:, 0]]
        trans = self.transitions.unsqueeze(0)  # (1, K, K)
        for t in range(1, T):
            prev = alphas[-1]
            # shape: (B, K) = logsumexp over previous tag i of alpha[i] + trans[i, j]
            nxt = torch.logsumexp(prev.unsqueeze(2) + trans, dim=1) + emissions[:, t]
            alphas.append(torch.where(mask[:, t : t + 1], nxt, prev))
        return torch.stack(alphas, 1)

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """log Z per sequence, shape (B,)."""
        mask = self._check(emissions, mask)
        alphas = self._forward_alphas(emissions, mask)
        return torch.logsumexp(alphas[:, -1] + self.end, dim=1)

    def log_likelihood(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """log p(tags | emissions) per sequence, shape (B,)."""
        mask = self._check(emissions, mask, tags)
        alphas = self._forward_alphas(emissions, mask)
        log_z = torch.logsumexp(alphas[:, -1] + self.end, dim=1)
        return self._path_score(emissions, tags, mask) - log_z

    def marginals(self, emissions: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """p(tag_t = k | emissions), shape (B, T, K); zero at masked steps.

        Forward and backward recursions run as one batch of 2B rows, so each time step costs one
        logsumexp instead of two (inference spends its time outside the LSTM on these small steps).
        The backward rows carry beta + emission, which makes both recursions the same form:
        new = logsumexp over the previous tag of (old + transition) + emission. The forward rows
        need no mask (masks are prefixes: log Z is read at each row's last step); a backward row
        restarts from `end` at and past its last step.
        """
        mask = self._check(emissions, mask)
        B, T, K = emissions.shape
        lengths = mask.long().sum(1)
        # shape: (2B, K, K): [previous tag, next tag] forward; [next, previous] backward
        trans = torch.cat([self.transitions.expand(B, K, K), self.transitions.t().expand(B, K, K)])
        rev = emissions.flip(1)
        # shape: (T, 2B, K): what step s adds; forward reads time s, backward time T-1-s
        adds = torch.cat([emissions, rev], 0).transpose(0, 1)
        # shape: (T, 2B, K): where a backward row stands at or past its last step (forward rows: unused)
        restart = torch.cat([torch.zeros_like(emissions), self.end + rev], 0).transpose(0, 1)
        t_back = torch.arange(T - 1, -1, -1, device=emissions.device)
        live = torch.cat([torch.ones(B, T, dtype=torch.bool, device=emissions.device),
                          (t_back.unsqueeze(0) < (lengths - 1).unsqueeze(1))], 0).transpose(0, 1).unsqueeze(2)
        state = torch.cat([self.start + emissions[:, 0], restart[0, B:]])
        steps = [state]
        for s in range(1, T):
            nxt = torch.logsumexp(state.unsqueeze(2) + trans, dim=1) + adds[s]
            state = torch.where(live[s], nxt, restart[s])
            steps.append(state)
        both = torch.stack(steps, 1)  # (2B, T, K)
        alphas = both[:B]
        betas = both[B:].flip(1) - emissions  # beta + emission -> beta
        last = alphas.gather(1, (lengths - 1).view(B, 1, 1).expand(B, 1, K)).squeeze(1)
        log_z = torch.logsumexp(last + self.end, dim=1)
        # past a row's end the unmasked forward sums keep growing: exp(-inf) = 0 there, not inf * 0
        return torch.exp((alphas + betas - log_z[:, None, None]).masked_fill(~mask.unsqueeze(2), float("-inf")))

    def decode(self, emissions: torch.Tensor, mask: torch.Tensor | None = None) -> list[list[int]]:
        """Viterbi: the best tag sequence of each row, as lists of its unmasked length."""
        mask = self._check(emissions, mask)
        B, T, K = emissions.shape
        score = self.start + emissions[:, 0]
        history = []
        trans = self.transitions.unsqueeze(0)
        for t in range(1, T):
            best, idx = (score.unsqueeze(2) + trans).max(dim=1)  # (B, K)
            nxt = best + emissions[:, t]
            m = mask[:, t : t + 1]
            score = torch.where(m, nxt, score)
            # a masked step keeps each tag's own history
            history.append(torch.where(m, idx, torch.arange(K, device=idx.device).expand(B, K)))
        score = score + self.end
        lengths = mask.long().sum(1).tolist()
        best_last = score.argmax(1).tolist()
        hist = torch.stack(history, 1).tolist() if history else [[] for _ in range(B)]
        out = []
        for b in range(B):
            tag = best_last[b]
            path = [tag]
            for t in range(lengths[b] - 2, -1, -1):
                tag = hist[b][t][tag]
                path.append(tag)
            path.reverse()
            out.append(path)
        return out
