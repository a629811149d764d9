// Scalars, arrays and lists of the aclnn metadata API. No operator of this library takes them, but programs
// written for CANN create and destroy them, so they exist and behave as documented.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclScalar {
    int32_t data_type;
    unsigned char value[16];  // the value's bytes, as read from the caller's host memory
};

struct aclIntArray {
    std::vector<int64_t> values;
};

struct aclFloatArray {
    std::vector<float> values;
};

struct aclBoolArray {
    std::vector<bool> values;
};

struct aclTensorList {
    std::vector<aclTensor*> items;  // owned: destroying the list destroys them
};

struct aclScalarList {
    std::vector<aclScalar*> items;  // owned
};
