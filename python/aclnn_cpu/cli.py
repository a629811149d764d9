"""aclnn-cpu: golden data and CANN precision checks on raw little-endian .bin files, as CANN's samples write.

    aclnn-cpu run soft_margin_loss_backward --grad-output g.bin:float16:[8,1024] --self x.bin:float16:[8,1024]
        --target y.bin:float16:[1024] --reduction mean --out golden.bin[:dtype]
    aclnn-cpu run smooth_l1_loss --self x.bin:float32:[64] --target y.bin:float32:[64] --beta 0.5 --out l.bin
    aclnn-cpu compare out.bin golden.bin --dtype bfloat16 [--shape 8,1024 --report DIR]
    aclnn-cpu gen mse_loss_backward --shape 8,1024 --dtype float16 --seed 1 --dir case1
    aclnn-cpu run nll_loss --self lp.bin:float32:[8,100] --target t.bin:int64:[8] --weight w.bin:float32:[100]
        --out loss.bin --total-weight-out tw.bin

The operators, their inputs and their parameters come from the operator table: `aclnn-cpu run --help`.

Exit status: 0 success (compare: pass), 1 compare: fail, 2 bad input (a file, a dtype, a shape, an argument,
or an operator that rejects its arguments), with a message naming what is wrong.
"""
import argparse
import json
import os
import re
import shlex
import sys

import numpy as np

from ._compare import compare
from ._dtypes import (ACL_BF16, ACL_INT32, ACL_INT64, ACL_UINT8, NAMES, STORAGE, Bfloat16, from_float64,
                      parse_dtype)
from ._errors import AclnnError
from ._operators import OPERATORS, parse_reduction, run_operator

# Class-index files (the NLL losses' targets): their dtype names and storage.
_INDEX_TYPES = {"int64": ACL_INT64, "int32": ACL_INT32, "uint8": ACL_UINT8}
_INDEX_STORAGE = {ACL_INT64: np.dtype(np.int64), ACL_INT32: np.dtype(np.int32), ACL_UINT8: np.dtype(np.uint8)}
_TYPE_NAMES = {**NAMES, **{t: name for name, t in _INDEX_TYPES.items()}}

EXIT_FAIL = 1
EXIT_BAD_INPUT = 2


def _inputs(operator):
    """An operator's inputs from the operator table: (command-line option, file name written by gen)."""
    return [(name.replace("_", "-"), name) for name in OPERATORS[operator].python_names]


def _parameter_values(operator, args):
    """The operator's parameters from the command line ({python name: value}); unset ones keep the row's default.
    A parameter the operator does not take is an error."""
    info = OPERATORS[operator]
    taken = {p.python_name for p in info.parameters}
    values = {}
    for name in _ALL_PARAMETERS:
        text = getattr(args, name, None)
        if text is None:
            continue
        if name not in taken:
            raise BadInput(f"--{name.replace('_', '-')}: {operator} has no parameter {name}")
        parameter = next(p for p in info.parameters if p.python_name == name)
        values[name] = _parse_parameter(parameter, text)
    return values


def _parse_parameter(parameter, text):
    option = f"--{parameter.python_name.replace('_', '-')}"
    if parameter.type == "reduction":
        return _reduction(text)
    if parameter.type == "bool":
        if text.lower() in ("1", "true", "yes"):
            return True
        if text.lower() in ("0", "false", "no"):
            return False
        raise BadInput(f"{option}: '{text}' is not true or false")
    try:
        return int(text) if parameter.type in ("int64", "dim", "ignore_index") else float(text)
    except ValueError:
        raise BadInput(f"{option}: '{text}' is not a number") from None


class BadInput(Exception):
    """A file, dtype, shape or argument the command cannot use (exit 2)."""


def _parse_shape(text, what):
    text = text.strip().strip("[]()").strip()
    if not text:
        return ()
    try:
        shape = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise BadInput(f"{what}: shape [{text}] is not a list of integers") from None
    if any(d < 0 for d in shape):
        raise BadInput(f"{what}: shape {list(shape)} has a negative dim")
    return shape


def _parse_dtype(text, what, index_types=False):
    if index_types and text.lower() in _INDEX_TYPES:
        return _INDEX_TYPES[text.lower()]
    try:
        return parse_dtype(text)
    except ValueError as error:
        raise BadInput(f"{what}: {error}") from None


def parse_tensor_spec(text, what):
    """PATH:DTYPE:[d0,d1,...] -> (path, aclDataType, shape)."""
    match = re.fullmatch(r"(.+):([A-Za-z0-9_.]+):(\[[^\]]*\])", text)
    if match is None:
        raise BadInput(f"{what}: '{text}' is not PATH:DTYPE:[SHAPE] (e.g. x.bin:float16:[8,1024])")
    path, dtype, shape = match.groups()
    return path, _parse_dtype(dtype, what, index_types=True), _parse_shape(shape, what)


def read_bin(path, acl_type, shape, what):
    """A raw little-endian file as the caller's array (a Bfloat16 for bfloat16)."""
    if not os.path.isfile(path):
        raise BadInput(f"{what}: file {path} does not exist")
    native = {**STORAGE, **_INDEX_STORAGE}[acl_type]
    storage = native.newbyteorder("<")
    count = int(np.prod(shape, dtype=np.int64))
    size = os.path.getsize(path)
    if size != count * storage.itemsize:
        raise BadInput(f"{what}: {path} has {size} bytes, but {_TYPE_NAMES[acl_type]} {list(shape)} needs "
                       f"{count * storage.itemsize}")
    values = np.fromfile(path, dtype=storage).astype(native).reshape(shape)
    return Bfloat16(values) if acl_type == ACL_BF16 else values


def write_bin(path, array):
    storage = array.bits if isinstance(array, Bfloat16) else np.asarray(array)
    storage.astype(storage.dtype.newbyteorder("<")).tofile(path)


def _describe(array):
    storage = array.bits if isinstance(array, Bfloat16) else array
    kind = "bfloat16" if isinstance(array, Bfloat16) else NAMES[parse_dtype(storage.dtype.name)]
    return f"{kind} {list(storage.shape)} ({storage.nbytes} bytes)"


def command_run(args):
    arrays = []
    for (option, _), info in zip(_inputs(args.operator), OPERATORS[args.operator].inputs):
        spec = getattr(args, option.replace("-", "_"))
        if spec is None:
            if info.optional:
                arrays.append(None)
                continue
            raise BadInput(f"{args.operator} needs --{option} PATH:DTYPE:[SHAPE]")
        path, acl_type, shape = parse_tensor_spec(spec, f"--{option}")
        if (acl_type in _INDEX_STORAGE) != (info.domain == "class_index"):
            raise BadInput(f"--{option}: {_TYPE_NAMES[acl_type]} is not a dtype of {info.python_name} "
                           f"({'int64, int32 or uint8' if info.domain == 'class_index' else 'a floating type'})")
        arrays.append(read_bin(path, acl_type, shape, f"--{option}"))
    for name in sorted(_ALL_INPUTS - set(OPERATORS[args.operator].python_names)):
        if getattr(args, name, None) is not None:
            raise BadInput(f"--{name.replace('_', '-')}: {args.operator} has no input {name}")
    out_path, out_dtype = args.out, None
    match = re.fullmatch(r"(.+):([A-Za-z0-9_]+)", args.out)
    if match is not None and not os.path.isdir(match.group(1)) and match.group(2).lower() not in ("bin",):
        out_path, out_dtype = match.group(1), _parse_dtype(match.group(2), "--out")
    returned = OPERATORS[args.operator].returned_outs
    for name in _MORE_OUTS:
        if getattr(args, _snake(name), None) is not None and name not in returned:
            raise BadInput(f"--{_kebab(name)}: {args.operator} has no output {name}")
    result = run_operator(args.operator, arrays, _parameter_values(args.operator, args), out_dtype)
    results = result if isinstance(result, tuple) else (result,)
    write_bin(out_path, results[0])
    print(f"wrote {out_path}: {_describe(results[0])}")
    for name, value in zip(returned, results[1:]):
        path = getattr(args, _snake(name))
        if path is not None:
            write_bin(path, value)
            print(f"wrote {path}: {_describe(value)}")
    return 0


def _snake(name):
    """totalWeightOut -> total_weight_out"""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _kebab(name):
    return _snake(name).replace("_", "-")


def _reduction(text):
    try:
        return parse_reduction(int(text) if re.fullmatch(r"-?\d+", text) else text)
    except ValueError as error:
        raise BadInput(f"--reduction: {error}") from None


def command_compare(args):
    acl_type = _parse_dtype(args.dtype, "--dtype")
    golden_type = _parse_dtype(args.golden_dtype, "--golden-dtype") if args.golden_dtype else acl_type
    if args.shape is not None:
        shape = _parse_shape(args.shape, "--shape")
    else:  # one dimension, as many elements as the actual file holds
        if not os.path.isfile(args.actual):
            raise BadInput(f"actual: file {args.actual} does not exist")
        shape = (os.path.getsize(args.actual) // STORAGE[acl_type].itemsize,)
        if os.path.getsize(args.actual) % STORAGE[acl_type].itemsize:
            raise BadInput(f"actual: {args.actual} has {os.path.getsize(args.actual)} bytes, not a whole number "
                           f"of {NAMES[acl_type]} elements")
    actual = read_bin(args.actual, acl_type, shape, "actual")
    golden = read_bin(args.golden, golden_type, shape, "golden")
    try:
        result = compare(actual, golden, dtype=acl_type, worst_count=args.worst, report=args.report)
    except ImportError as error:  # the report's pictures need matplotlib
        raise BadInput(f"--report: {error}") from None
    print(result.report())
    return 0 if result.passed else EXIT_FAIL


def _hard_values(acl_type):
    """Values that find the corners of the kernels: products near exp's overflow (+-88.72), zeros, the smallest
    subnormal of the dtype, values where 1 + exp(-t) rounds to 1, large magnitudes."""
    tiny = {0: 1.4e-45, 1: 6e-8, 27: 9.2e-41}[acl_type]
    return np.array([88.72, -88.72, 88.7, -88.7, 89.0, -89.0, 0.0, -0.0, tiny, -tiny, 17.0, -17.0, 1e4, -1e4])


def _draw(domain, count, acl_type, rng, classes=1, ignore_index=-100):
    """count values of an input's domain (the operator table's ValueDomain)."""
    if domain == "class_index":  # classes, one in ten ignored (where an ignoreIndex is given)
        if ignore_index is None:
            return rng.integers(0, max(classes, 1), count)
        return np.where(rng.random(count) < 0.1, ignore_index, rng.integers(0, max(classes, 1), count))
    if domain == "sign_label":  # mostly +-1, some other real labels
        return np.where(rng.random(count) < 0.9, rng.choice([-1.0, 1.0], count), rng.uniform(-3.0, 3.0, count))
    if domain == "gradient":
        return rng.uniform(-2.0, 2.0, count)
    if domain == "probability":  # targets in [0, 1], one in eight at an end
        ends = rng.random(count) < 0.125
        return np.where(ends, rng.choice([0.0, 1.0], count), rng.uniform(0.0, 1.0, count))
    if domain == "weight":
        return rng.uniform(0.0, 2.0, count)
    values = rng.uniform(-12.0, 12.0, count)  # real: predictions, regression targets, logits
    hard = rng.random(count) < 0.125  # one element in eight takes a hard value
    values[hard] = rng.choice(_hard_values(acl_type), int(hard.sum()))
    return values


def _class_index_shapes(info, shape, parameters):
    """The inputs' shapes of an NLL loss from self's: target (and gradOutput under none) without the class dim,
    weight one per class, a total weight one element, gradOutput one element under a reduction."""
    if len(shape) == 0:
        raise BadInput("--shape: self of an NLL loss has a class dim ([C], [N, C] or [N, C, H, W])")
    per_sample = shape[:1] + shape[2:] if len(shape) >= 2 else ()
    classes = shape[1] if len(shape) >= 2 else shape[0]
    reduction = parse_reduction(parameters.get("reduction", "mean"))
    by_kind = {"per_sample": per_sample, "per_class": (classes,), "one_element": (1,)}
    shapes = {}
    for i in info.inputs:
        if i.role == "incoming_gradient":
            shapes[i.python_name] = per_sample if reduction == 0 else ()
        else:
            shapes[i.python_name] = by_kind.get(i.shape, shape)
    return shapes


def command_gen(args):
    info = OPERATORS[args.operator]
    acl_type = _parse_dtype(args.dtype, "--dtype")
    shape = _parse_shape(args.shape, "--shape")
    target_shape = _parse_shape(args.target_shape, "--target-shape") if args.target_shape else shape
    parameters = _parameter_values(args.operator, args)
    rng = np.random.default_rng(args.seed)
    if info.class_indexed:
        shapes = _class_index_shapes(info, shape, parameters)
    else:
        shapes = {i.python_name: (target_shape if i.role == "target" else shape) for i in info.inputs}
    classes = shape[0] if len(shape) == 1 else shape[1] if shape else 1
    ignore_index = parameters.get("ignore_index", -100)
    if info.iteration == "class_rows" and ignore_index < 0:
        ignore_index = None  # the fused cross-entropy's gradient on Ascend 950 ignores only a non-negative one
    values = {i.python_name: _draw(i.domain, int(np.prod(shapes[i.python_name], dtype=np.int64)), acl_type, rng,
                                   classes, ignore_index)
              for i in info.inputs if not i.optional}
    if args.nonfinite:  # on request: +-inf and NaN in every input, about one element in 64
        specials = np.array([np.inf, -np.inf, np.nan])
        for name in (i.python_name for i in info.inputs if i.domain != "class_index" and not i.optional):
            spots = rng.random(values[name].size) < 1 / 64
            values[name][spots] = rng.choice(specials, int(spots.sum()))
    os.makedirs(args.dir, exist_ok=True)
    arrays, command = [], ["aclnn-cpu", "run", args.operator]
    manifest = {"operator": args.operator, "seed": args.seed, "parameters": parameters, "inputs": {}}
    for (option, name), input_info in zip(_inputs(args.operator), info.inputs):
        if input_info.optional:
            arrays.append(None)
            continue
        if input_info.domain == "class_index":
            file_type, array = ACL_INT64, np.asarray(values[name], np.int64).reshape(shapes[name])
        else:
            file_type, storage = acl_type, from_float64(values[name], acl_type).reshape(shapes[name])
            array = Bfloat16(storage) if acl_type == ACL_BF16 else storage
        path = os.path.join(args.dir, f"{name}.bin")
        write_bin(path, array)
        arrays.append(array)
        spec = f"{path}:{_TYPE_NAMES[file_type]}:[{','.join(map(str, shapes[name]))}]"
        command += [f"--{option}", spec]
        manifest["inputs"][name] = {"file": f"{name}.bin", "dtype": _TYPE_NAMES[file_type],
                                    "shape": list(shapes[name])}
    golden = run_operator(args.operator, arrays, parameters, None)
    goldens = golden if isinstance(golden, tuple) else (golden,)
    golden = goldens[0]
    golden_path = os.path.join(args.dir, "golden.bin")
    write_bin(golden_path, golden)
    for name, value in parameters.items():
        command += [f"--{name.replace('_', '-')}", str(value).lower() if isinstance(value, bool) else str(value)]
    command += ["--out", golden_path]
    for name, value in zip(info.returned_outs, goldens[1:]):  # aclnnNLLLoss's totalWeightOut beside it...
        file = f"golden_{_snake(name)}.bin"
        write_bin(os.path.join(args.dir, file), value)
        command += [f"--{_kebab(name)}", os.path.join(args.dir, file)]
        manifest[f"golden_{_snake(name)}"] = {"file": file, "description": _describe(value)}
    manifest["golden"] = {"file": "golden.bin", "description": _describe(golden)}
    manifest["command"] = shlex.join(command)
    with open(os.path.join(args.dir, "case.json"), "w") as handle:
        json.dump(manifest, handle, indent=2)
    written = [f"{name}.bin" for (_, name), i in zip(_inputs(args.operator), info.inputs) if not i.optional]
    print(f"wrote {args.dir}: " + ", ".join(written) + f", golden.bin ({_describe(golden)}), case.json")
    print(f"the golden again: {manifest['command']}")
    return 0


# Every input and parameter of the table's operators, for the options of run and gen.
_ALL_INPUTS = {name for info in OPERATORS.values() for name in info.python_names}
_ALL_PARAMETERS = sorted({p.python_name for info in OPERATORS.values() for p in info.parameters})
# Every written output after out (totalWeightOut, logProbOut), in the table's order.
_MORE_OUTS = list(dict.fromkeys(name for info in OPERATORS.values() for name in info.returned_outs))


def _add_parameter_options(parser):
    for name in _ALL_PARAMETERS:
        takers = sorted(info.name for info in OPERATORS.values() if name in {p.python_name for p in info.parameters})
        example = next(p for info in OPERATORS.values() for p in info.parameters if p.python_name == name)
        default = example.python_default()
        help_text = ("none, mean, sum, or CANN's integer" if example.type == "reduction" else f"{example.type}") + \
            f" (default {str(default).lower() if isinstance(default, bool) else default}; {', '.join(takers)})"
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, help=help_text)


def build_parser():
    parser = argparse.ArgumentParser(prog="aclnn-cpu", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run an operator on .bin files and write its output")
    run.add_argument("operator", choices=sorted(OPERATORS))
    options = dict.fromkeys(option for name in sorted(OPERATORS) for option, _ in _inputs(name))
    for option in options:
        run.add_argument(f"--{option}", metavar="PATH:DTYPE:[SHAPE]")
    _add_parameter_options(run)
    run.add_argument("--out", required=True, metavar="PATH[:DTYPE]",
                     help="output file; its dtype defaults to the inputs' promoted dtype")
    for name in _MORE_OUTS:  # the outputs after out that operators write (the NLL losses' total weight...)
        run.add_argument(f"--{_kebab(name)}", metavar="PATH", help=f"where {name} goes (self's dtype)")
    comparison = commands.add_parser("compare", help="judge an output against a golden by CANN's standard")
    comparison.add_argument("actual")
    comparison.add_argument("golden")
    comparison.add_argument("--dtype", required=True, help="the output's dtype: float32, float16 or bfloat16")
    comparison.add_argument("--golden-dtype", help="the golden's dtype, when it differs (e.g. a float32 golden)")
    comparison.add_argument("--shape", help="d0,d1,... (default: one dimension, the whole file)")
    comparison.add_argument("--worst", type=int, default=5, help="how many worst elements to print")
    comparison.add_argument("--report", metavar="DIR",
                            help="also write DIR/report.html with pictures of where the errors are (needs "
                                 "matplotlib: python3-matplotlib)")
    gen = commands.add_parser("gen", help="write a reproducible random input set and its golden")
    gen.add_argument("operator", choices=sorted(OPERATORS))
    gen.add_argument("--shape", required=True, help="d0,d1,... of every input but target")
    gen.add_argument("--target-shape", help="d0,d1,... of target, when it broadcasts (default: --shape)")
    gen.add_argument("--dtype", required=True, help="float32, float16 or bfloat16")
    gen.add_argument("--seed", type=int, default=0)
    _add_parameter_options(gen)
    gen.add_argument("--nonfinite", action="store_true", help="also put +-inf and NaN into the inputs")
    gen.add_argument("--dir", required=True, help="directory to write into (created if missing)")
    return parser


def main(argv=None):
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:  # argparse: 2 on a bad argument, 0 for --help
        return int(exit_request.code or 0)
    handlers = {"run": command_run, "compare": command_compare, "gen": command_gen}
    try:
        return handlers[args.command](args)
    except BadInput as error:
        print(f"aclnn-cpu {args.command}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except AclnnError as error:
        print(f"aclnn-cpu {args.command}: the operator rejected its arguments: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        print(f"aclnn-cpu {args.command}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
