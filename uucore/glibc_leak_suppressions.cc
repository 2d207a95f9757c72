// uucore/glibc_leak_suppressions.cc -- LeakSanitizer's suppressions for leaks inside glibc, not ours.
//
// newlocale() with LOCPATH set (uucore/duration.cc asks for the user's LC_NUMERIC; the locale tests set LOCPATH to
// locales compiled for them) builds its search path with __argz_add_sep and never frees it (glibc 2.36). Only
// sanitizer builds define COREUTILS_SANITIZED; the product binary gets nothing from this file.
#ifdef COREUTILS_SANITIZED
extern "C" const char* __lsan_default_suppressions() { return "leak:__argz_add_sep\n"; }
// Quietly: behaviour tests compare stderr byte for byte, and a matched suppression is no finding.
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
#endif
