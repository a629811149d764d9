"""The exception every failed aclnn-cpu call raises."""


class AclnnError(RuntimeError):
    """A status from the C API (e.g. 161002, ACLNN_ERR_PARAM_INVALID) and aclGetRecentErrMsg()'s message."""

    def __init__(self, status, message):
        super().__init__(f"[{status}] {message}")
        self.status = int(status)
        self.message = message
