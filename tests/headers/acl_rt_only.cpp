// The same program as acl_rt_only.c, compiled as C++.
#include "acl_rt_only.c"
