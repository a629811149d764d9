"""F.cross_entropy through CANN's fused kernels, an opt-in of aclnn_cpu.torch (enable(fused_cross_entropy=True)):
torch_npu.npu_cross_entropy_loss's arithmetic -- aclnnCrossEntropyLoss forward (logits read once, logProb kept) and
aclnnCrossEntropyLossGrad backward (logProb read once) -- rather than the log_softmax + nll_loss pair the default
override serves. Never the default: its sums group differently from log_softmax + nll_loss's.

While the opt-in is on, torch.nn.functional.cross_entropy (which nn.CrossEntropyLoss calls) is this module's
function. A call the fused kernels take: a 2-D floating input (FLOAT, FLOAT16, BFLOAT16) of plain CPU tensors, int64
class targets, no weight or a FLOAT one per class, reduction none, mean or sum, labelSmoothing in [0, 1], on a SoC
with the kernels (Atlas A2/A3, Ascend 950/350), every target a class or ignore_index, and, where a gradient will be
taken, one the SoC's gradient kernel takes (Atlas A2/A3's has no label smoothing; Ascend 950's ignores no negative
ignore_index). Every other call -- N-d inputs, class probabilities, the legacy size_average/reduce, a functorch
transform, a target outside the classes -- is PyTorch's F.cross_entropy, whose aten operators the override serves
as usual. A gradient taken with create_graph=True keeps CANN's values and carries the derivative of PyTorch's
formula, as the override's other recorded derivatives do.
"""
import threading

import torch

from . import _core, _operators

_lock = threading.Lock()
_on = False
_pytorch_cross_entropy = torch.nn.functional.cross_entropy  # PyTorch's own, which this module's falls back to


def set_fused(state):
    """Turns the opt-in on or off: F.cross_entropy is this module's while it is on, PyTorch's own again after (a
    reference taken while it was on falls back to PyTorch's)."""
    global _on
    with _lock:
        torch.nn.functional.cross_entropy = cross_entropy if state else _pytorch_cross_entropy
        _on = bool(state)


def is_fused():
    return _on


def _soc():
    """"A2" (Atlas A2/A3: NpuArch 2201), "950" (Ascend 950/350: 3510), or None (no fused kernels there)."""
    name = _core.soc_name()
    if name.startswith(("Ascend910B", "Ascend910_93")):
        return "A2"
    if name.startswith(("Ascend950", "Ascend350")):
        return "950"
    return None


def _fused_takes(input, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing):
    from . import torch as override

    if not (_on and override.is_enabled()) or size_average is not None or reduce is not None:
        return False
    # functorch transforms, forward-mode AD, autocast and tracing: PyTorch's, which knows them.
    if torch._C._are_functorch_transforms_active() or torch.autograd.forward_ad._current_level >= 0:
        return False
    if torch.is_autocast_cpu_enabled() or torch._C._get_tracing_state() is not None:
        return False
    tensors = [input, target] + ([] if weight is None else [weight])
    if any(type(t) is not torch.Tensor or t.device.type != "cpu" for t in tensors):
        return False
    if input.dim() != 2 or target.dim() != 1 or target.dtype != torch.int64 or input.shape[1] == 0:
        return False
    if input.dtype not in (torch.float32, torch.float16, torch.bfloat16) or input.shape[0] != target.shape[0]:
        return False
    # A weight of input's dtype, as PyTorch requires (CANN's FLOAT weight is it widened, exactly).
    if weight is not None and (weight.dtype != input.dtype or weight.shape != (input.shape[1],)):
        return False
    if reduction not in ("none", "mean", "sum") or not 0.0 <= label_smoothing <= 1.0:
        return False
    soc = _soc()
    if soc is None:
        return False
    counted = target != ignore_index
    if bool(((target[counted] < 0) | (target[counted] >= input.shape[1])).any()):
        return False  # PyTorch's error
    if input.requires_grad and torch.is_grad_enabled():
        if soc == "A2" and label_smoothing > 0:
            return False
        if soc == "950" and ignore_index < 0 and not bool(counted.all()):
            return False
    return True


def _smoothed_cross_entropy(x, target, weight, ignore_index, reduction, label_smoothing):
    """PyTorch's formula with label smoothing, in differentiable operators (its derivative for create_graph)."""
    log_prob = torch.log_softmax(x, dim=1)
    nll = torch.nn.functional.nll_loss(log_prob, target, weight, ignore_index=ignore_index, reduction=reduction)
    w = torch.ones(x.shape[1], dtype=x.dtype) if weight is None else weight
    counted = (target != ignore_index).to(x.dtype)
    smooth = -(log_prob * w).sum(1) * counted
    if reduction == "mean":
        smooth = smooth.sum() / (w[target.clamp(0, x.shape[1] - 1)] * counted).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + label_smoothing / x.shape[1] * smooth


class _FusedCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, target, weight, reduction, ignore_index, label_smoothing):
        loss, log_prob = _operators.cross_entropy_loss(input.detach(), target, weight, reduction=reduction,
                                                       ignore_index=ignore_index, label_smoothing=label_smoothing)
        ctx.save_for_backward(input, target, weight, log_prob)
        ctx.parameters = (reduction, ignore_index, label_smoothing)
        return loss

    @staticmethod
    def backward(ctx, grad):
        input, target, weight, log_prob = ctx.saved_tensors
        reduction, ignore_index, label_smoothing = ctx.parameters
        grad_input = _operators.cross_entropy_loss_grad(grad.detach().to(log_prob.dtype).contiguous(), log_prob,
                                                        target, weight, reduction=reduction,
                                                        ignore_index=ignore_index, label_smoothing=label_smoothing)
        if torch.is_grad_enabled():  # create_graph: CANN's values, PyTorch's formula's derivative (in float32)
            with torch.enable_grad():
                loss = torch.nn.functional.nll_loss(
                    torch.log_softmax(input.float(), dim=1), target, weight, ignore_index=ignore_index,
                    reduction=reduction) if label_smoothing == 0 else _smoothed_cross_entropy(
                        input.float(), target, weight, ignore_index, reduction, label_smoothing)
                theirs = torch.autograd.grad(loss, input, grad.float(), create_graph=True)[0]
            grad_input = grad_input + (theirs - theirs.detach())
        return grad_input, None, None, None, None, None


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """torch.nn.functional.cross_entropy, through aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad where they
    take the call (the module's text), else PyTorch's."""
    if not _fused_takes(input, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing):
        return _pytorch_cross_entropy(input, target, weight, size_average, ignore_index, reduce, reduction,
                                      label_smoothing)
    if weight is not None:
        weight = weight.float()
    return _FusedCrossEntropy.apply(input, target, weight, reduction, int(ignore_index), float(label_smoothing))
