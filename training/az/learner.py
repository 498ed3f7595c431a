"""The learner: the AlphaZero loss on minibatches of the replay buffer.

Loss = cross-entropy of the masked policy to the visit distribution + the
squared error of the value per seat (summed over seats, weighted by
``value_weight``) + with ownership targets, the squared error of the
ownership foreseen (weighted by ``ownership_weight``), with Adam and weight
decay. The ownership error is summed over the entries and divided by the
number held at the end: a board is mostly empty (a finished two-player
Amoeba game holds a few dozen of its 1,152 entries), so a plain mean would
leave the head nothing to learn, while per held entry a network that
foresees no holders scores 1, as a value that knows nothing about a result.
"""

from __future__ import annotations

import numpy as np
import torch


def az_loss(
    net, observations, masks, policies, values, ownership=None, value_weight: float = 1.0,
    ownership_weight: float = 0.0,
):  # fmt: skip
    """(total, policy loss, value loss, ownership loss) for one minibatch of
    numpy arrays; the ownership loss is 0 without ``ownership`` targets."""
    obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
    legal = torch.as_tensor(np.asarray(masks, dtype=bool))
    target_pi = torch.as_tensor(policies, dtype=torch.float32)
    target_v = torch.as_tensor(values, dtype=torch.float32)
    if ownership is None:
        (logits, predicted), ownership_loss = net(obs), torch.zeros(())
    else:
        logits, predicted, owned = net.forward_with_ownership(obs)
        target = torch.as_tensor(ownership, dtype=torch.float32)
        ownership_loss = ((owned - target) ** 2).sum() / target.abs().sum().clamp(min=1.0)
    logits = logits.masked_fill(~legal, -1e9)
    policy_loss = -(target_pi * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = ((predicted - target_v) ** 2).sum(dim=1).mean()
    total = policy_loss + value_weight * value_loss + ownership_weight * ownership_loss
    return total, policy_loss, value_loss, ownership_loss


class Learner:
    def __init__(self, net, settings: dict) -> None:
        self.net = net
        self.value_weight = float(settings["value_weight"])
        self.ownership_weight = float(settings.get("ownership_weight", 0.0))
        self.batch_size = int(settings["batch_size"])
        self.optimizer = torch.optim.AdamW(
            net.parameters(),
            lr=float(settings["learning_rate"]),
            weight_decay=float(settings["weight_decay"]),
        )
        self.steps = 0

    def train(self, buffer, steps: int, rng: np.random.Generator) -> dict:
        """``steps`` gradient steps; the mean losses."""
        self.net.train()
        totals = np.zeros(4)
        for _ in range(steps):
            batch = buffer.sample(self.batch_size, rng)
            losses = az_loss(
                self.net, *batch, value_weight=self.value_weight, ownership_weight=self.ownership_weight
            )
            self.optimizer.zero_grad()
            losses[0].backward()
            self.optimizer.step()
            totals += [loss.item() for loss in losses]
            self.steps += 1
        mean = totals / max(steps, 1)
        names = ("loss", "policy_loss", "value_loss", "ownership_loss")[: 4 if self.ownership_weight else 3]
        return {name: float(value) for name, value in zip(names, mean)}

    def state_dict(self) -> dict:
        return {"net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(), "steps": self.steps}

    def load_state_dict(self, data: dict) -> None:
        self.net.load_state_dict(data["net"])
        self.optimizer.load_state_dict(data["optimizer"])
        self.steps = int(data["steps"])
