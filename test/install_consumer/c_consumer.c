/* A C program using the installed C API (strata/c.h) alone: creates a DB
   in the scratch directory, writes and reads a key, destroys the DB.
   Prints "strata C consumer: ok" on success. */

#include <stdio.h>
#include <string.h>

#include "strata/c.h"

int main(int argc, char** argv) {
  char name[1024];
  char* err = NULL;
  strata_options_t* options;
  strata_writeoptions_t* wo;
  strata_readoptions_t* ro;
  strata_t* db;
  char* value;
  size_t len = 0;
  int ok;

  if (argc < 2) {
    fprintf(stderr, "usage: %s <scratch-dir>\n", argv[0]);
    return 2;
  }
  snprintf(name, sizeof(name), "%s/c_consumer_db", argv[1]);
  options = strata_options_create();
  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, name, &err);
  if (db == NULL) {
    fprintf(stderr, "open failed: %s\n", err);
    return 1;
  }
  wo = strata_writeoptions_create();
  ro = strata_readoptions_create();
  strata_put(db, wo, "key", 3, "value", 5, &err);
  value = strata_get(db, ro, "key", 3, &len, &err);
  ok = err == NULL && value != NULL && len == 5 &&
       memcmp(value, "value", 5) == 0;
  strata_free(value);
  strata_close(db);
  strata_destroy_db(options, name, &err);
  if (!ok || err != NULL) {
    fprintf(stderr, "round trip failed: %s\n", err != NULL ? err : "bad value");
    strata_free(err);
    return 1;
  }
  strata_readoptions_destroy(ro);
  strata_writeoptions_destroy(wo);
  strata_options_destroy(options);
  printf("strata C consumer: ok\n");
  return 0;
}
