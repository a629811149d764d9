// Which sanitizer instruments this build -- GCC defines __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, Clang
// answers __has_feature -- for the tests that shorten their largest operator runs there.
#pragma once

#if defined(__has_feature)
#define ACLNN_CPU_TEST_HAS_FEATURE(feature) __has_feature(feature)
#else
#define ACLNN_CPU_TEST_HAS_FEATURE(feature) 0
#endif

namespace test_support {

#if defined(__SANITIZE_THREAD__) || ACLNN_CPU_TEST_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif

#if defined(__SANITIZE_ADDRESS__) || ACLNN_CPU_TEST_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace test_support
