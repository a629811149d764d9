#!/usr/bin/env bash
# Installs the build into a fresh CANN-like prefix, then builds and runs the examples exactly as CANN's
# documentation builds its samples (source set_env.sh; cmake -DCMAKE_SKIP_RPATH=TRUE; make; ./bin/opapi_test),
# and checks what they print.
# Usage: run_examples.sh <build dir> <examples dir> <work dir>
# EXAMPLE_SANITIZE=address,undefined (or thread) builds the examples with that sanitizer, for sanitizer builds
# of the libraries; EXAMPLE_VALGRIND=1 runs them under valgrind's memcheck.
# A clang build (the asan test preset) or a cross build (tests/CMakeLists.txt) builds them with EXAMPLE_CXX
# (default g++: sanitizer runtimes do not mix across compilers); a cross build also passes
# EXAMPLE_CMAKE_ARGS (its toolchain file) to the find_package consumer, and runs every program through
# EXAMPLE_RUNNER (qemu-aarch64; the CPU model from QEMU_CPU).
set -euo pipefail
example_cxx=${EXAMPLE_CXX:-g++}
read -r -a example_cmake_args <<<"${EXAMPLE_CMAKE_ARGS:-}"
read -r -a runner <<<"${EXAMPLE_RUNNER:-}"
build_dir=$(realpath "$1")
examples_dir=$(realpath "$2")
work=$(realpath -m "$3")
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null

# set_env.sh works when sourced from bash, zsh and dash (Debian's /bin/sh), from any directory, and from a
# moved prefix in the shells that can tell where the sourced file is.
for shell in bash zsh dash; do
    got=$(cd / && env -u LD_LIBRARY_PATH "$shell" -c ". '$prefix/set_env.sh' && echo \"\$ASCEND_HOME_PATH|\$ASCEND_OPP_PATH|\$LD_LIBRARY_PATH\"")
    [[ "$got" == "$prefix|$prefix/opp|$prefix/lib64" ]] || { echo "set_env.sh from $shell exported: $got"; exit 1; }
done
cp -r "$prefix" "$work/moved_prefix"
for shell in bash zsh; do
    got=$(cd / && "$shell" -c ". '$work/moved_prefix/set_env.sh' && echo \"\$ASCEND_HOME_PATH\"")
    [[ "$got" == "$work/moved_prefix" ]] || { echo "set_env.sh of a moved prefix from $shell exported: $got"; exit 1; }
done
rm -rf "$work/moved_prefix"

for lib in libascendcl.so libnnopbase.so libopapi_nn.so libopapi_math.so libopapi.so; do
    [[ -f "$prefix/lib64/$lib" ]] || { echo "missing $prefix/lib64/$lib"; exit 1; }
done

# The Python package and the command line, from the installed prefix after set_env.sh alone (builds with
# ACLNN_CPU_BUILD_PYTHON=ON; the sanitizer presets leave them out).
if [[ -d "$prefix/python/aclnn_cpu" ]]; then
    (
        unset LD_LIBRARY_PATH PYTHONPATH
        source "$prefix/set_env.sh"
        cd "$work"
        [[ "$(command -v aclnn-cpu)" == "$prefix/bin/aclnn-cpu" ]] || { echo "aclnn-cpu is not on PATH"; exit 1; }
        python3_bin=$(head -n 1 "$prefix/bin/aclnn-cpu" | cut -c 3-)
        "$python3_bin" -c "
import numpy as np, aclnn_cpu
assert aclnn_cpu.__file__.startswith('$prefix/python/'), aclnn_cpu.__file__
loss = aclnn_cpu.soft_margin_loss(np.array([0.0, 1.0], np.float32), np.ones(2, np.float32), reduction='sum')
assert abs(float(loss) - (np.log(2) + np.log1p(np.exp(-1)))) < 1e-6, loss
"
        aclnn-cpu gen soft_margin_loss --shape 64 --dtype bfloat16 --seed 1 --dir python_case >/dev/null
        aclnn-cpu run soft_margin_loss --self python_case/self.bin:bfloat16:[64] \
            --target python_case/target.bin:bfloat16:[64] --out python_case/out.bin >/dev/null
        aclnn-cpu compare python_case/out.bin python_case/golden.bin --dtype bfloat16 >/dev/null
    ) || { echo "the installed Python package or aclnn-cpu command failed"; exit 1; }
fi

run_example() {
    local name=$1
    local build="$work/$name-build"
    mkdir -p "$build"
    (
        # A clean environment apart from what set_env.sh provides, as a CANN user would have.
        unset LD_LIBRARY_PATH
        source "$prefix/set_env.sh"
        export ASCEND_CUSTOM_PATH="$ASCEND_HOME_PATH"
        cd "$build"
        sanitize=()
        if [[ -n "${EXAMPLE_SANITIZE:-}" ]]; then
            sanitize=(-DCMAKE_CXX_FLAGS="-fsanitize=$EXAMPLE_SANITIZE" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$EXAMPLE_SANITIZE")
        fi
        cmake "$examples_dir/$name" -DCMAKE_CXX_COMPILER="$example_cxx" -DCMAKE_SKIP_RPATH=TRUE "${sanitize[@]}" \
            >cmake.log
        # The sample must compile without a single warning.
        make 2>&1 | tee make.log >/dev/null
        if grep -qi "warning" make.log; then cat make.log; echo "$name: warnings while compiling"; exit 1; fi
        cd bin
        if [[ -n "${EXAMPLE_VALGRIND:-}" ]]; then
            valgrind --quiet --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite,indirect \
                --show-leak-kinds=definite,indirect ./opapi_test
        else
            "${runner[@]}" ./opapi_test
        fi
    )
}

# Runs an example and compares everything it prints with the expected lines.
expect_output() {
    local name=$1 expected=$2 output
    output=$(run_example "$name")
    echo "$output"
    if [[ "$output" != "$expected" ]]; then
        echo "$name: unexpected output; expected:"
        echo "$expected"
        exit 1
    fi
}

expect_output soft_margin_loss_backward \
    $'result[0] is: -0.000000\nresult[1] is: -0.067235\nresult[2] is: -0.059601\nresult[3] is: -0.035569'
# The loss and gradient of self = [0, 1, 2, 3], target = [1, -1, 1, -1], mean, computed by hand.
expect_output soft_margin_loss $'loss is: 1.295481\ngradient[0] is: -0.125000\ngradient[1] is: 0.182765\ngradient[2] is: -0.029801\ngradient[3] is: 0.238144'

# A regression loss with a parameter: smooth L1 (beta = 0.5) of self = [0, 0.5, 2, -3], target = [0.25, 0, 0, 0],
# mean, and its gradient, computed by hand (the example's comment).
expect_output smooth_l1_loss $'loss is: 1.203125\ngradient[0] is: -0.125000\ngradient[1] is: 0.250000\ngradient[2] is: 0.250000\ngradient[3] is: -0.250000'

# The logistic losses of a batch of four (the example's comment): the five operators, mean, against float64.
expect_output logistic_losses $'logits loss is: 1.517956\nlogits gradient[0] is: 0.029801\nlogits gradient[1] is: -0.311230\nlogits gradient[2] is: -0.188770\nlogits gradient[3] is: 0.238144\nprobabilities loss is: 1.438975\nprobabilities gradient[0] is: 0.277778\nprobabilities gradient[1] is: -2.000000\nprobabilities gradient[2] is: -0.666667\nprobabilities gradient[3] is: 2.500000\nkl gradient[0] is: -0.025000\nkl gradient[1] is: -0.050000\nkl gradient[2] is: -0.075000\nkl gradient[3] is: -0.100000'

# The softmax family on the inputs of CANN's own samples for it: float64's values rounded to the fp32 outs, but
# for the log-softmax gradient's third, whose fp32 steps (g - exp(y) * s, the product rounded first) give
# -30.619381 where float64 rounds to -30.619383.
expect_output softmax_family $'softmax[0] is: 0.002144\nsoftmax[1] is: 0.002144\nsoftmax[2] is: 0.015842\nsoftmax[3] is: 0.015842\nsoftmax[4] is: 0.117059\nsoftmax[5] is: 0.117059\nsoftmax[6] is: 0.864955\nsoftmax[7] is: 0.864955\nlog softmax[0] is: -2.407606\nlog softmax[1] is: -1.407606\nlog softmax[2] is: -0.407606\nlog softmax[3] is: -2.407606\nlog softmax[4] is: -1.407606\nlog softmax[5] is: -0.407606\nlog softmax[6] is: -2.407606\nlog softmax[7] is: -1.407606\nlog softmax[8] is: -0.407606\nsoftmax gradient[0] is: -28.000000\nsoftmax gradient[1] is: -37.000000\nsoftmax gradient[2] is: -26.000000\nsoftmax gradient[3] is: -70.000000\nsoftmax gradient[4] is: -48.000000\nsoftmax gradient[5] is: -66.000000\nsoftmax gradient[6] is: -66.000000\nsoftmax gradient[7] is: -93.000000\nlog softmax gradient[0] is: -32.619381\nlog softmax gradient[1] is: -42.492508\nlog softmax gradient[2] is: -30.619381\nlog softmax gradient[3] is: -115.224899\nlog softmax gradient[4] is: -84.668671\nlog softmax gradient[5] is: -113.224899\nlog softmax gradient[6] is: -235.026443\nlog softmax gradient[7] is: -314.368591'

# The NLL losses on the inputs of CANN's own samples: float64's values rounded to the fp32 outs (-(1.1 * 0) is
# -0); the 2-D sample's target 2 with two classes fails its kernel before anything is written: the stream's
# synchronisation returns 161002.
expect_output nll_loss $'nll loss 2d synchronisation status is: 161002\nnll loss[0] is: -0.000000\nnll loss[1] is: -6.500000\nmean nll loss is: -2.708333\ntotal weight is: 2.400000\nnll loss gradient[0] is: -3.410000\nnll loss gradient[1] is: 0.000000\nnll loss gradient[2] is: 0.000000\nnll loss gradient[3] is: 0.000000\nnll loss gradient[4] is: 0.000000\nnll loss gradient[5] is: -8.450000\nnll loss 2d gradient[0] is: 0.000000\nnll loss 2d gradient[1] is: 0.000000\nnll loss 2d gradient[2] is: -2.700000\nnll loss 2d gradient[3] is: 0.000000\nnll loss 2d gradient[4] is: 0.000000\nnll loss 2d gradient[5] is: 0.000000\nnll loss 2d gradient[6] is: 0.000000\nnll loss 2d gradient[7] is: 0.000000\nnll loss 2d gradient[8] is: -2.600000\nnll loss 2d gradient[9] is: 0.000000\nnll loss 2d gradient[10] is: 0.000000\nnll loss 2d gradient[11] is: -2.500000\nnll loss 2d gradient[12] is: 0.000000\nnll loss 2d gradient[13] is: 0.000000\nnll loss 2d gradient[14] is: 0.000000'

# The fused cross-entropy on the inputs of CANN's own samples (FLOAT tensors and int64_t targets, as those samples
# mean them): float64's values rounded to the fp32 outs.
expect_output cross_entropy_loss $'loss is: 1.093754\nlog prob[0] is: -2.159461\nlog prob[1] is: -7.159461\nlog prob[2] is: -4.159461\nlog prob[3] is: -4.159461\nlog prob[4] is: -0.159461\nlog prob[5] is: -0.028047\nlog prob[6] is: -6.028047\nlog prob[7] is: -4.028047\nlog prob[8] is: -7.028047\nlog prob[9] is: -5.028047\ngradient[0] is: -0.009063\ngradient[1] is: 0.040937\ngradient[2] is: 0.040937\ngradient[3] is: -0.009063\ngradient[4] is: 0.040937\ngradient[5] is: 0.040937'

# Stream 2 waits on an event for stream 1's loss, then weights the gradient by it (fp32 results: the last is
# 2.904006 where float64 gives 2.9040054).
expect_output multi_stream $'loss[0] is: 0.693147\nloss[1] is: 1.313262\nloss[2] is: 0.126928\nloss[3] is: 3.048587\ngradient[0] is: -0.346574\ngradient[1] is: 0.960071\ngradient[2] is: -0.015130\ngradient[3] is: 2.904006'

output=$(run_example repeatable_executor)
echo "$output"
[[ $(grep -c "result\[" <<<"$output") -eq 12 ]] || { echo "repeatable_executor: expected 12 results"; exit 1; }

# A find_package(aclnn_cpu) consumer builds and runs too.
mkdir -p "$work/find_package"
cat >"$work/find_package/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(consumer CXX)
if(NOT "\$ENV{EXAMPLE_SANITIZE}" STREQUAL "")
  add_compile_options(-fsanitize=\$ENV{EXAMPLE_SANITIZE})
  add_link_options(-fsanitize=\$ENV{EXAMPLE_SANITIZE})
endif()
find_package(aclnn_cpu REQUIRED)
add_executable(consumer "$examples_dir/soft_margin_loss_backward/test_aclnn_soft_margin_loss_backward.cpp")
target_link_libraries(consumer PRIVATE aclnn_cpu::aclnn_cpu)
CMAKE
(
    unset LD_LIBRARY_PATH
    cd "$work/find_package"
    cmake -S . -B build -DCMAKE_PREFIX_PATH="$prefix" "${example_cmake_args[@]}" >/dev/null
    cmake --build build >/dev/null
    "${runner[@]}" ./build/consumer | grep -q "result\[1\] is: -0.067235"
) || { echo "find_package consumer failed"; exit 1; }

# And a pkg-config consumer.
(
    unset LD_LIBRARY_PATH
    export PKG_CONFIG_PATH="$prefix/lib64/pkgconfig"
    "$example_cxx" -std=c++11 ${EXAMPLE_SANITIZE:+-fsanitize=$EXAMPLE_SANITIZE} -o "$work/pkgconfig_consumer" \
        "$examples_dir/soft_margin_loss_backward/test_aclnn_soft_margin_loss_backward.cpp" \
        $(pkg-config --cflags --libs aclnn_cpu)
    "${runner[@]}" "$work/pkgconfig_consumer" | grep -q "result\[2\] is: -0.059601"
) || { echo "pkg-config consumer failed"; exit 1; }
echo "examples OK"
