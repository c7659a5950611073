#include "db/utilities/write_batch_with_index/wbwi_lookup.h"

#include "db/column_family.h"
#include "db/utilities/write_batch_with_index/wbwi_index.h"
#include "db/utilities/write_batch_with_index/wbwi_rep.h"

namespace strata {

uint32_t WriteBatchWithIndexInternal::FamilyId(
    ColumnFamilyHandle* column_family) {
  return column_family == nullptr ? 0 : column_family->GetID();
}

const Comparator* WriteBatchWithIndexInternal::ComparatorOf(
    ColumnFamilyHandle* column_family, const Comparator* backup) {
  const Comparator* cmp =
      column_family == nullptr ? nullptr : column_family->GetComparator();
  return cmp != nullptr ? cmp : backup;
}

const MergeOperator* WriteBatchWithIndexInternal::MergeOperatorOf(
    ColumnFamilyHandle* column_family) {
  auto* impl = dynamic_cast<ColumnFamilyHandleImpl*>(column_family);
  if (impl == nullptr || impl->cfd() == nullptr) return nullptr;
  return impl->cfd()->options().merge_operator.get();
}

const WriteBatchIndex& WriteBatchWithIndexInternal::Index(
    const WriteBatchWithIndex* batch) {
  return batch->rep_->index;
}

WriteBatchWithIndexInternal::Result WriteBatchWithIndexInternal::GetFromBatch(
    const WriteBatchWithIndex* batch, ColumnFamilyHandle* column_family,
    const MergeOperator* merge_operator, const Slice& key,
    MergeContext* operands, std::string* value, Status* s) {
  *s = Status::OK();
  operands->Clear();
  const WriteBatchIndex& index = Index(batch);
  const IndexSet* set = index.FindFamily(FamilyId(column_family));
  if (set == nullptr) return kNotFound;
  WBWIIteratorImpl it(&index, set);
  it.Seek(key);
  if (!it.Valid() ||
      set->key_comp().comparator()->Compare(it.key(), key) != 0) {
    return kNotFound;
  }
  Slice put_value;
  switch (it.LatestUpdate(operands, &put_value)) {
    case WBWIIteratorImpl::kFound:
      if (operands->empty()) {
        value->assign(put_value.data(), put_value.size());
        return kFound;
      }
      *s = FinishMerge(merge_operator, key, &put_value, operands, value);
      return s->ok() ? kFound : kError;
    case WBWIIteratorImpl::kDeleted:
      if (operands->empty()) return kDeleted;
      *s = FinishMerge(merge_operator, key, nullptr, operands, value);
      return s->ok() ? kFound : kError;
    case WBWIIteratorImpl::kMergeInProgress:
      return kMergeInProgress;
    case WBWIIteratorImpl::kNotFound:
      break;
  }
  return kNotFound;
}

}  // namespace strata
