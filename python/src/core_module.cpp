// aclnn_cpu._core: the thin C++ layer under the Python package. It calls the C API exactly as a C++ program
// does (operator_call.h) on the caller's buffers, with the GIL released. It also reads DLPack capsules (torch
// tensors, bfloat16 included). Everything Pythonic (dtypes,
// reductions, broadcasting of results, numpy/torch results) lives in aclnn_cpu/*.py.
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "ops/operator_table.h"
#include "operator_call.h"

namespace py = pybind11;

namespace {

using aclnn_cpu::python::Failure;
using aclnn_cpu::python::Region;
using aclnn_cpu::python::TensorSpec;

// One operand as the Python layer describes it: data address, aclDataType, view shape, strides in elements.
using TensorTuple = std::tuple<uintptr_t, int, std::vector<int64_t>, std::vector<int64_t>>;

TensorSpec ToSpec(const TensorTuple& tuple) {
    const auto& [address, dtype, shape, strides] = tuple;
    TensorSpec spec;
    spec.address = address;
    spec.dtype = dtype;
    spec.shape = shape;
    spec.strides = strides;
    spec.element_bytes = dtype == ACL_FLOAT ? 4 : 2;
    return spec;
}

[[noreturn]] void RaiseAclnnError(const Failure& failure) {
    py::object error_type = py::module_::import("aclnn_cpu._errors").attr("AclnnError");
    PyErr_SetObject(error_type.ptr(), py::make_tuple(failure.status, failure.message).ptr());
    throw py::error_already_set();
}

// Takes a DLPack capsule ("dltensor"), marks it consumed ("used_dltensor") as the protocol requires, and
// returns (address, type code, bits, lanes, shape, strides or None, device type, owner). The owner capsule
// calls the producer's deleter when Python drops it; the caller keeps it alive while the data is in use.
py::tuple ReadDlpack(py::capsule capsule) {
    PyObject* object = capsule.ptr();
    if (!PyCapsule_IsValid(object, "dltensor"))
        throw py::value_error("not an unconsumed DLPack capsule (expected the name \"dltensor\")");
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(object, "dltensor"));
    if (managed == nullptr) throw py::error_already_set();
    PyCapsule_SetName(object, "used_dltensor");
    py::capsule owner(managed, [](void* pointer) {
        auto* tensor = static_cast<DLManagedTensor*>(pointer);
        if (tensor->deleter != nullptr) tensor->deleter(tensor);
    });
    const DLTensor& tensor = managed->dl_tensor;
    std::vector<int64_t> shape(tensor.shape, tensor.shape + tensor.ndim);
    py::object strides = py::none();
    if (tensor.strides != nullptr) strides = py::cast(std::vector<int64_t>(tensor.strides, tensor.strides + tensor.ndim));
    const uintptr_t address = reinterpret_cast<uintptr_t>(tensor.data) + tensor.byte_offset;
    return py::make_tuple(address, static_cast<int>(tensor.dtype.code), static_cast<int>(tensor.dtype.bits),
                          static_cast<int>(tensor.dtype.lanes), shape, strides,
                          static_cast<int>(tensor.device.device_type), owner);
}

}  // namespace

PYBIND11_MODULE(_core, module) {
    module.doc() = "aclnn-cpu's C API, called from Python (internal; use the aclnn_cpu package)";
    module.def(
        "run",
        [](const std::string& name, const std::vector<std::optional<TensorTuple>>& inputs,
           const std::vector<TensorTuple>& outs, const std::vector<double>& parameters,
           const std::vector<Region>& regions, int threads) {
            const aclnn_cpu::OperatorDescription* row = aclnn_cpu::FindOperator(name.c_str());
            if (row == nullptr) RaiseAclnnError({ACLNN_ERR_PARAM_INVALID, "unknown operator " + name});
            std::vector<TensorSpec> specs;
            for (const std::optional<TensorTuple>& input : inputs) {
                TensorSpec spec;
                spec.absent = !input.has_value();
                specs.push_back(input.has_value() ? ToSpec(*input) : spec);
            }
            std::vector<TensorSpec> out_specs;
            for (const TensorTuple& out : outs) out_specs.push_back(ToSpec(out));
            Failure failure;
            {
                py::gil_scoped_release release;
                failure = aclnn_cpu::python::RunOperator(*row, specs, out_specs, parameters, regions, threads);
            }
            if (failure.status != 0) RaiseAclnnError(failure);
        },
        py::arg("name"), py::arg("inputs"), py::arg("outs"), py::arg("parameters"), py::arg("regions"),
        py::arg("threads") = 0);
    // The operator table (ops/operator_table.h), row by row, as dicts.
    module.def("operators", [] {
        auto text_or_none = [](const char* text) -> py::object {
            if (text == nullptr) return py::none();
            return py::str(text);
        };
        py::list table;
        for (const aclnn_cpu::OperatorDescription& row : aclnn_cpu::kOperators) {
            py::list inputs, parameters;
            static const char* const kShapes[] = {"broadcast",  "same_as_self", "to_self",    "to_broadcast",
                                                  "per_sample", "per_class",    "one_element"};
            static const char* const kRoles[] = {"incoming_gradient", "self", "target", "weight"};
            for (int i = 0; i < row.input_count; ++i) {
                const aclnn_cpu::InputDescription& input = row.inputs[i];
                inputs.append(py::dict(py::arg("name") = input.name,
                                       py::arg("aten_name") = text_or_none(input.aten_name),
                                       py::arg("optional") = input.optional,
                                       py::arg("domain") = static_cast<int>(input.domain),
                                       py::arg("shape") = kShapes[static_cast<int>(input.shape)],
                                       py::arg("role") = kRoles[static_cast<int>(aclnn_cpu::RoleOf(row, i))]));
            }
            for (int i = 0; i < row.parameter_count; ++i) {
                const aclnn_cpu::ParameterDescription& parameter = row.parameters[i];
                static const char* const kTypes[] = {"int64", "float", "bool", "reduction", "double", "dim",
                                                     "ignore_index"};
                parameters.append(py::dict(
                    py::arg("name") = parameter.name,
                    py::arg("aten_name") = text_or_none(parameter.aten_name),
                    py::arg("type") = kTypes[static_cast<int>(parameter.type)],
                    py::arg("default") = parameter.default_value, py::arg("minimum") = parameter.minimum,
                    py::arg("maximum") = parameter.maximum));
            }
            static const char* const kResults[] = {"loss",        "gradient",       "loss_over_first_dim",
                                                   "gradient_of_self", "elementwise", "loss_per_sample"};
            static const char* const kIterations[] = {"elementwise", "along_dim", "class_index", "class_rows"};
            static const char* const kOutputShapes[] = {"one_element", "self", "unwritten"};
            py::list more_outs;
            for (int k = 1; k < row.output_count; ++k)
                more_outs.append(py::make_tuple(row.more_outs[k - 1].name,
                                                kOutputShapes[static_cast<int>(row.more_outs[k - 1].shape)]));
            table.append(py::dict(py::arg("name") = row.name, py::arg("api_name") = row.api_name,
                                  py::arg("summary") = row.summary, py::arg("inputs") = inputs,
                                  py::arg("self_input") = row.self_input, py::arg("parameters") = parameters,
                                  py::arg("result") = kResults[static_cast<int>(row.result)],
                                  py::arg("inputs_share_dtype") = row.inputs_share_dtype,
                                  py::arg("aten_name") = text_or_none(row.aten_name),
                                  py::arg("out_dtype_input") = row.out_dtype_input,
                                  py::arg("iteration") = kIterations[static_cast<int>(row.iteration)],
                                  py::arg("more_outs") = more_outs,
                                  py::arg("self_ranks") = py::make_tuple(row.self_min_rank, row.self_max_rank)));
        }
        return table;
    });
    module.attr("VALUE_DOMAINS") =
        py::make_tuple("real", "sign_label", "gradient", "probability", "weight", "class_index");
    module.def("read_dlpack", &ReadDlpack, py::arg("capsule"));
    // The SoC whose arithmetic and lists the operators follow (aclrtGetSocName: ACLNN_CPU_SOC_NAME or the default).
    module.def("soc_name", [] {
        const char* name = aclrtGetSocName();
        return std::string(name != nullptr ? name : "");
    });
    module.attr("kDLCPU") = static_cast<int>(kDLCPU);
    module.attr("kDLFloat") = static_cast<int>(kDLFloat);
    module.attr("kDLInt") = static_cast<int>(kDLInt);
    module.attr("kDLUInt") = static_cast<int>(kDLUInt);
    module.attr("kDLBfloat") = static_cast<int>(kDLBfloat);
}
