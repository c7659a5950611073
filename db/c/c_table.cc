// strata's C API (include/strata/c.h): block-based table options, the
// LRU block cache and bloom filter policies.

#include <memory>

#include "db/c/c_internal.h"
#include "strata/filter_policy.h"

extern "C" {

// ---- strata_filterpolicy_t ----

strata_filterpolicy_t* strata_filterpolicy_create_bloom(double bits_per_key) {
  // strata builds one kind of bloom filter (the full, cache-local one);
  // RocksDB's block-based builder is gone from RocksDB 7 as well.
  strata_filterpolicy_t* result = new strata_filterpolicy_t;
  result->rep.reset(strata::NewBloomFilterPolicy(bits_per_key));
  return result;
}

strata_filterpolicy_t* strata_filterpolicy_create_bloom_full(
    double bits_per_key) {
  return strata_filterpolicy_create_bloom(bits_per_key);
}

void strata_filterpolicy_destroy(strata_filterpolicy_t* policy) {
  delete policy;
}

// ---- strata_cache_t ----

strata_lru_cache_options_t* strata_lru_cache_options_create(void) {
  return new strata_lru_cache_options_t;
}

void strata_lru_cache_options_destroy(strata_lru_cache_options_t* opt) {
  delete opt;
}

void strata_lru_cache_options_set_capacity(strata_lru_cache_options_t* opt,
                                           size_t capacity) {
  opt->rep.capacity = capacity;
}

void strata_lru_cache_options_set_num_shard_bits(
    strata_lru_cache_options_t* opt, int num_shard_bits) {
  opt->rep.num_shard_bits = num_shard_bits;
}

strata_cache_t* strata_cache_create_lru(size_t capacity) {
  return new strata_cache_t{strata::NewLRUCache(capacity)};
}

strata_cache_t* strata_cache_create_lru_with_strict_capacity_limit(
    size_t capacity) {
  return new strata_cache_t{strata::NewLRUCache(capacity, -1, true)};
}

strata_cache_t* strata_cache_create_lru_opts(strata_lru_cache_options_t* opt) {
  return new strata_cache_t{strata::NewLRUCache(opt->rep)};
}

void strata_cache_destroy(strata_cache_t* cache) { delete cache; }

void strata_cache_set_capacity(strata_cache_t* cache, size_t capacity) {
  cache->rep->SetCapacity(capacity);
}

size_t strata_cache_get_capacity(strata_cache_t* cache) {
  return cache->rep->GetCapacity();
}

size_t strata_cache_get_usage(strata_cache_t* cache) {
  return cache->rep->GetUsage();
}

size_t strata_cache_get_pinned_usage(strata_cache_t* cache) {
  return cache->rep->GetPinnedUsage();
}

// ---- strata_block_based_table_options_t ----

strata_block_based_table_options_t* strata_block_based_options_create(void) {
  return new strata_block_based_table_options_t;
}

void strata_block_based_options_destroy(
    strata_block_based_table_options_t* options) {
  delete options;
}

void strata_block_based_options_set_block_size(
    strata_block_based_table_options_t* options, size_t block_size) {
  options->rep.block_size = block_size;
}

void strata_block_based_options_set_block_restart_interval(
    strata_block_based_table_options_t* options, int block_restart_interval) {
  options->rep.block_restart_interval = block_restart_interval;
}

void strata_block_based_options_set_index_block_restart_interval(
    strata_block_based_table_options_t* options,
    int index_block_restart_interval) {
  options->rep.index_block_restart_interval = index_block_restart_interval;
}

void strata_block_based_options_set_filter_policy(
    strata_block_based_table_options_t* options,
    strata_filterpolicy_t* filter_policy) {
  options->rep.filter_policy.reset(filter_policy);
}

void strata_block_based_options_set_no_block_cache(
    strata_block_based_table_options_t* options, unsigned char no_block_cache) {
  options->rep.no_block_cache = no_block_cache;
}

void strata_block_based_options_set_block_cache(
    strata_block_based_table_options_t* options, strata_cache_t* block_cache) {
  if (block_cache != nullptr) {
    options->rep.block_cache = block_cache->rep;
  }
}

void strata_block_based_options_set_whole_key_filtering(
    strata_block_based_table_options_t* options, unsigned char v) {
  options->rep.whole_key_filtering = v;
}

void strata_block_based_options_set_cache_index_and_filter_blocks(
    strata_block_based_table_options_t* options, unsigned char v) {
  options->rep.cache_index_and_filter_blocks = v;
}

void strata_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(
    strata_block_based_table_options_t* options, unsigned char v) {
  options->rep.cache_index_and_filter_blocks_with_high_priority = v;
}

void strata_options_set_block_based_table_factory(
    strata_options_t* opt, strata_block_based_table_options_t* table_options) {
  if (table_options != nullptr) {
    opt->rep.table_factory.reset(
        strata::NewBlockBasedTableFactory(table_options->rep));
  }
}

}  // extern "C"
