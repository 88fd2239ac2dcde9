// Catch2 2.x (Debian 12) and 3.x have different headers; tests include this one.
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif

// A test that needs what this machine lacks (a device, a compiler, a library) says why and is
// reported skipped, never passed: Catch2 3's SKIP(); on Catch2 2 (Debian 12's), which has no
// SKIP, a "skipped: ..." warning and a return, which ctest reports as skipped through the
// SKIP_REGULAR_EXPRESSION every Catch2 test is registered with (tests/CMakeLists.txt).
#if defined(CATCH_VERSION_MAJOR) && CATCH_VERSION_MAJOR >= 3
#define FRMINI_SKIP(why) SKIP(why)
#else
#define FRMINI_SKIP(why)          \
  do {                            \
    WARN("skipped: " << why);     \
    return;                       \
  } while (0)
#endif
