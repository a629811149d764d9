/* aclnn-cpu's own additions to the CANN API (not in CANN's headers): how a program learns that it runs on
 * aclnn-cpu rather than on an NPU.
 *
 * aclrtGetSocName() returns a real SoC's name (so programs that check it run), so it cannot tell. A program
 * built only for aclnn-cpu may call aclnnCpuGetVersion() directly. A program that must also link against
 * CANN looks the symbol up at run time instead, which works unchanged on both:
 *
 *     #include <dlfcn.h>
 *     const char* (*version)(void) = (const char* (*)(void))dlsym(RTLD_DEFAULT, "aclnnCpuGetVersion");
 *     if (version != NULL) printf("running on aclnn-cpu %s\n", version());
 */
#ifndef ACLNN_CPU_INC_ACLNN_CPU_ACLNN_CPU_H
#define ACLNN_CPU_INC_ACLNN_CPU_ACLNN_CPU_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The aclnn-cpu release, e.g. "0.9.0"; never NULL. Exported by libascendcl. */
ACL_FUNC_VISIBILITY const char *aclnnCpuGetVersion(void);

/* How many threads the operators launched from the calling thread (their phase 2, aclnnXxx(...)) may use:
 * count > 0 sets it for this thread, over ACLNN_CPU_NUM_THREADS; 0 goes back to ACLNN_CPU_NUM_THREADS or,
 * unset, all online cores. A framework that owns a thread setting (PyTorch's torch.set_num_threads) passes it
 * here. Returns ACL_ERROR_INVALID_PARAM for count < 0 or > 4096. Exported by libascendcl. */
ACL_FUNC_VISIBILITY aclError aclnnCpuSetThreadCount(int32_t count);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNN_CPU_ACLNN_CPU_H */
