// strata's C API (include/strata/c.h): Envs, prefix extractors and
// statistics.

#include <memory>

#include "db/c/c_internal.h"
#include "strata/statistics.h"

using strata::Env;
using strata::Slice;
using strata::c_api::CopyBytes;

namespace {

// RocksDB's NewNoopTransform, which strata's C++ API does not have: the
// key is its own prefix.
class NoopTransform : public strata::SliceTransform {
 public:
  const char* Name() const override { return "strata.Noop"; }
  Slice Transform(const Slice& key) const override { return key; }
  bool InDomain(const Slice&) const override { return true; }
};

strata_slicetransform_t* Wrap(const strata::SliceTransform* transform) {
  strata_slicetransform_t* result = new strata_slicetransform_t;
  result->wrapped.reset(transform);
  return result;
}

}  // namespace

strata_slicetransform_t::~strata_slicetransform_t() {
  if (destructor != nullptr) {
    (*destructor)(state);
  }
}

const char* strata_slicetransform_t::Name() const {
  return wrapped ? wrapped->Name() : (*name)(state);
}

Slice strata_slicetransform_t::Transform(const Slice& key) const {
  if (wrapped) {
    return wrapped->Transform(key);
  }
  size_t length = 0;
  const char* prefix = (*transform)(state, key.data(), key.size(), &length);
  return Slice(prefix, length);
}

bool strata_slicetransform_t::InDomain(const Slice& key) const {
  if (wrapped) {
    return wrapped->InDomain(key);
  }
  return (*in_domain)(state, key.data(), key.size()) != 0;
}

extern "C" {

// ---- strata_env_t ----

strata_env_t* strata_create_default_env(void) {
  return new strata_env_t{Env::Default(), true};
}

strata_env_t* strata_create_mem_env(void) {
  return new strata_env_t{strata::NewMemEnv(Env::Default()), false};
}

void strata_env_destroy(strata_env_t* env) {
  if (!env->is_default) {
    delete env->rep;
  }
  delete env;
}

void strata_env_set_background_threads(strata_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, Env::LOW);
}

int strata_env_get_background_threads(strata_env_t* env) {
  return env->rep->GetBackgroundThreads(Env::LOW);
}

void strata_env_set_high_priority_background_threads(strata_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, Env::HIGH);
}

int strata_env_get_high_priority_background_threads(strata_env_t* env) {
  return env->rep->GetBackgroundThreads(Env::HIGH);
}

void strata_env_set_low_priority_background_threads(strata_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, Env::LOW);
}

int strata_env_get_low_priority_background_threads(strata_env_t* env) {
  return env->rep->GetBackgroundThreads(Env::LOW);
}

void strata_env_set_bottom_priority_background_threads(strata_env_t* env,
                                                       int n) {
  env->rep->SetBackgroundThreads(n, Env::BOTTOM);
}

int strata_env_get_bottom_priority_background_threads(strata_env_t* env) {
  return env->rep->GetBackgroundThreads(Env::BOTTOM);
}

void strata_env_join_all_threads(strata_env_t* env) { env->rep->WaitForJoin(); }

void strata_options_set_env(strata_options_t* opt, strata_env_t* env) {
  opt->rep.env = env != nullptr ? env->rep : Env::Default();
}

// ---- strata_slicetransform_t ----

strata_slicetransform_t* strata_slicetransform_create(
    void* state, void (*destructor)(void*),
    char* (*transform)(void*, const char* key, size_t length,
                       size_t* dst_length),
    unsigned char (*in_domain)(void*, const char* key, size_t length),
    unsigned char (*in_range)(void*, const char* key, size_t length),
    const char* (*name)(void*)) {
  strata_slicetransform_t* result = new strata_slicetransform_t;
  result->state = state;
  result->destructor = destructor;
  result->transform = transform;
  result->in_domain = in_domain;
  result->name = name;
  return result;
}

strata_slicetransform_t* strata_slicetransform_create_fixed_prefix(
    size_t prefix_len) {
  return Wrap(strata::NewFixedPrefixTransform(prefix_len));
}

strata_slicetransform_t* strata_slicetransform_create_noop(void) {
  return Wrap(new NoopTransform);
}

void strata_slicetransform_destroy(strata_slicetransform_t* transform) {
  delete transform;
}

void strata_options_set_prefix_extractor(
    strata_options_t* opt, strata_slicetransform_t* prefix_extractor) {
  opt->rep.prefix_extractor.reset(prefix_extractor);
}

// ---- statistics ----

void strata_options_enable_statistics(strata_options_t* opt) {
  opt->rep.statistics = strata::CreateDBStatistics();
}

char* strata_options_statistics_get_string(strata_options_t* opt) {
  if (opt->rep.statistics == nullptr) {
    return nullptr;
  }
  return CopyBytes(opt->rep.statistics->ToString(), /*nul=*/true);
}

}  // extern "C"
