/* Defines a function of libstdc++'s own that libstdc++'s constructors call through its
 * PLT (the constructor of std::error_category, declared here as libstdc++ declares
 * it): the linker exports it, and in a fork server it would run before "ready". There
 * it maps one shared page, which every case would then be forked with, and each case
 * leaves its input there for the next. Prints N unless it sees an earlier case's
 * input. */
#include <cstdio>
#include <sys/mman.h>

static char *shared_page;

namespace std {
class error_category {
  public:
    error_category() noexcept;
    virtual ~error_category();
};
}  // namespace std

std::error_category::error_category() noexcept {
    if (shared_page) return;
    void *page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED) shared_page = static_cast<char *>(page);
}

int main() {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    if (shared_page && shared_page[0]) printf("stale input %s\n", shared_page);
    else printf("%ld\n", n);
    if (shared_page) snprintf(shared_page, 64, "%ld", n);
    return 0;
}
