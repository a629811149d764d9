"""aclnn_cpu.compare: CANN's precision standard on crafted pass and fail cases."""
import numpy as np
import pytest

import aclnn_cpu


def test_float32_threshold_is_two_to_minus_13():
    golden = np.linspace(1, 2, 1000, dtype=np.float64)
    just_inside = (golden * (1 + 2.0 ** -14)).astype(np.float32)
    result = aclnn_cpu.compare(just_inside, golden.astype(np.float32))
    assert result.passed and result.threshold == 2.0 ** -13 and result.dtype == "float32"
    outside = (golden * (1 + 2.0 ** -12)).astype(np.float32)
    result = aclnn_cpu.compare(outside, golden.astype(np.float32))
    assert not result.passed and result.mere > 2.0 ** -13


def test_mare_limit_is_ten_times_the_threshold():
    golden = np.ones(10000, np.float16)
    actual = golden.copy()
    actual[0] = np.float16(1.0 + 12 * 2.0 ** -10)  # one element 12 T off: MERE tiny, MARE > 10 T
    result = aclnn_cpu.compare(actual, golden)
    assert result.mere < result.threshold and result.mare > 10 * result.threshold
    assert not result.passed
    assert result.worst[0][0] == (0,) and result.worst[0][4] == 12


def test_bfloat16_threshold_and_ulp_histogram():
    golden = aclnn_cpu.Bfloat16.from_float32(np.linspace(1, 100, 500, dtype=np.float32))
    actual = aclnn_cpu.Bfloat16(golden.bits.copy())
    actual.bits[:100] += 1  # one ulp up
    result = aclnn_cpu.compare(actual, golden)
    assert result.dtype == "bfloat16" and result.threshold == 2.0 ** -7
    assert result.ulp_histogram["0"] == 400 and result.ulp_histogram["1"] == 100
    assert result.passed


def test_nan_and_inf_must_match_exactly():
    golden = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    assert aclnn_cpu.compare(golden.copy(), golden).passed
    for position, wrong in ((1, 1.0), (2, np.nan), (3, np.inf), (0, np.nan)):
        actual = golden.copy()
        actual[position] = wrong
        result = aclnn_cpu.compare(actual, golden)
        assert not result.passed and result.nan_inf_mismatches == 1
        assert result.worst[0][0] == (position,)


def test_near_zero_golden_uses_the_1e_7_floor():
    golden = np.zeros(100, np.float32)
    actual = np.full(100, 1e-12, np.float32)  # |a - g| / (0 + 1e-7) = 1e-5 < 2^-13
    assert aclnn_cpu.compare(actual, golden).passed


def test_dtype_argument_and_shape_mismatch():
    golden = np.ones((4, 4), np.float32)
    actual = golden * np.float32(1 + 2.0 ** -11)
    assert not aclnn_cpu.compare(actual, golden).passed          # by float32's threshold
    assert aclnn_cpu.compare(actual, golden, dtype="float16").passed
    with pytest.raises(ValueError, match="shape"):
        aclnn_cpu.compare(np.ones(3, np.float32), np.ones(4, np.float32))
    with pytest.raises(ValueError, match="dtype"):
        aclnn_cpu.compare(np.ones(3), np.ones(3))  # float64: say which standard
    report = aclnn_cpu.compare(actual, golden).report()
    assert "MERE" in report and "MARE" in report and report.endswith("FAIL")
