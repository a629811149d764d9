# aclnn-cpu environment, in the manner of CANN's set_env.sh: source it (`source <prefix>/set_env.sh`).
# It exports the CANN variables a sample's build and run expect, pointing at this install prefix.
_aclnn_cpu_dir="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
export ASCEND_TOOLKIT_HOME="${_aclnn_cpu_dir}"
export ASCEND_HOME_PATH="${_aclnn_cpu_dir}"
export ASCEND_OPP_PATH="${_aclnn_cpu_dir}/opp"
export ASCEND_AICPU_PATH="${_aclnn_cpu_dir}"
export LD_LIBRARY_PATH="${_aclnn_cpu_dir}/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
unset _aclnn_cpu_dir
