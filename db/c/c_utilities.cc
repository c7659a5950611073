// The C API's utilities: checkpoints (include/strata/c_utilities.h).

#include "db/c/c_internal.h"
#include "strata/utilities/checkpoint.h"

using strata::c_api::SaveError;

struct strata_checkpoint_t {
  strata::Checkpoint* rep;
};

extern "C" {

strata_checkpoint_t* strata_checkpoint_object_create(strata_t* db,
                                                     char** errptr) {
  strata::Checkpoint* checkpoint = nullptr;
  if (SaveError(errptr, strata::Checkpoint::Create(db->rep, &checkpoint))) {
    return nullptr;
  }
  return new strata_checkpoint_t{checkpoint};
}

void strata_checkpoint_create(strata_checkpoint_t* checkpoint,
                              const char* checkpoint_dir,
                              uint64_t log_size_for_flush, char** errptr) {
  SaveError(errptr, checkpoint->rep->CreateCheckpoint(checkpoint_dir,
                                                      log_size_for_flush));
}

void strata_checkpoint_object_destroy(strata_checkpoint_t* checkpoint) {
  if (checkpoint == nullptr) return;
  delete checkpoint->rep;
  delete checkpoint;
}

}  // extern "C"
