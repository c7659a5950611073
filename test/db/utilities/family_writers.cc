#include "test/db/utilities/family_writers.h"

#include <memory>

#include "gtest/gtest.h"

namespace strata {
namespace test {

std::string WriterKey(int writer, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "w%d-%06d", writer, i);
  return buf;
}

FamilyWriters::FamilyWriters(DB* db,
                             const std::vector<ColumnFamilyHandle*>& handles,
                             int writers, int readers) {
  for (int w = 0; w < writers; w++) {
    threads_.emplace_back([this, db, handles, w] {
      const std::string value(100, static_cast<char>('a' + w));
      for (int i = 0; !stop_.load(); i++) {
        WriteBatch batch;
        for (ColumnFamilyHandle* h : handles)
          batch.Put(h, WriterKey(w, i), value);
        if (!db->Write(WriteOptions(), &batch).ok()) {
          failures_++;
          return;
        }
      }
    });
  }
  for (int r = 0; r < readers; r++) {
    threads_.emplace_back([this, db, handles] {
      while (!stop_.load()) {
        std::unique_ptr<Iterator> it(
            db->NewIterator(ReadOptions(), handles[1]));
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
        }
        if (!it->status().ok()) failures_++;
      }
    });
  }
}

int FamilyWriters::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  return failures_.load();
}

uint64_t CountWriterBatches(DB* db,
                            const std::vector<ColumnFamilyHandle*>& handles,
                            int writers) {
  uint64_t batches = 0;
  for (int w = 0; w < writers; w++) {
    std::vector<int> counts;
    for (ColumnFamilyHandle* h : handles) {
      std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions(), h));
      int n = 0;
      const std::string prefix = "w" + std::to_string(w) + "-";
      for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
           it->Next()) {
        if (it->key().ToString() != WriterKey(w, n)) {
          ADD_FAILURE() << h->GetName() << ": " << it->key().ToString()
                        << " where " << WriterKey(w, n) << " belongs";
          return batches;
        }
        n++;
      }
      EXPECT_TRUE(it->status().ok()) << it->status().ToString();
      counts.push_back(n);
    }
    for (size_t f = 1; f < counts.size(); f++) {
      EXPECT_EQ(counts[0], counts[f])
          << "writer " << w << " in " << handles[f]->GetName();
    }
    batches += counts[0];
  }
  return batches;
}

}  // namespace test
}  // namespace strata
