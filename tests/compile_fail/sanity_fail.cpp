// Must fail, with this exact marker as the first error.
#include <test_schemas.hpp>
static_assert(sizeof(orders) == 0, "joinery_sanity_marker: the harness sees this message");
int main() {}
