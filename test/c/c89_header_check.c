/* include/strata/c.h alone in a C89 translation unit (built with
   -std=c89 -pedantic where the compiler takes them): the header must not
   need C99 or C++. */

#include "strata/c.h"

int main(void) {
  strata_options_t* options = strata_options_create();
  strata_options_destroy(options);
  return 0;
}
