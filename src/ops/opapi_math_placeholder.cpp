// libopapi_math holds CANN's math operators; aclnn-cpu implements none of them. The library exists so that
// the link line of CANN's documented sample CMakeLists (which names it) works unchanged.
namespace aclnn_cpu::opapi_math {
int LibraryPresent() { return 1; }
}  // namespace aclnn_cpu::opapi_math
