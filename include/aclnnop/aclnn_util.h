/* aclnn-cpu: attributes shared by the operator headers. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_UTIL_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_UTIL_H

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_UTIL_H */
