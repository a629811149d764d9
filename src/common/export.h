// Marks the internal C++ interfaces that one of our libraries offers to the others (libnnopbase and
// libopapi_nn call into libascendcl). Everything else is hidden: the build uses -fvisibility=hidden.
#pragma once

#define ACLNN_CPU_INTERNAL __attribute__((visibility("default")))
