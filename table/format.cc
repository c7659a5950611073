#include "table/format.h"

#include <cstring>
#include <string>

#include "env/file_reader.h"
#include "strata/options.h"
#include "table/compression.h"
#include "util/crc32c.h"

namespace strata {

namespace {

// "<file>: <what> at <offset>: " — the prefix of every error below.
std::string Where(const std::string& file_name, const char* what,
                  uint64_t offset) {
  return file_name + ": " + what + " at " + std::to_string(offset);
}

}  // namespace

std::string BlockLocation(const std::string& file_name, uint64_t offset) {
  return Where(file_name, "block", offset);
}

void BlockHandle::EncodeTo(std::string* dst) const {
  PutVarint64(dst, offset_);
  PutVarint64(dst, size_);
}

bool BlockHandle::DecodeFrom(Slice* input) {
  Slice in = *input;
  uint64_t offset, size;
  if (!GetVarint64(&in, &offset) || !GetVarint64(&in, &size)) return false;
  offset_ = offset;
  size_ = size;
  *input = in;
  return true;
}

void Footer::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  metaindex_handle.EncodeTo(dst);
  index_handle.EncodeTo(dst);
  dst->resize(start + kHandlesLength, '\0');
  PutFixed32(dst, format_version);
  PutFixed64(dst, kBlockBasedTableMagicNumber);
}

Status Footer::DecodeFrom(const Slice& input, const std::string& file_name,
                          uint64_t file_size) {
  const uint64_t footer_offset =
      file_size >= kEncodedLength ? file_size - kEncodedLength : 0;
  const std::string where = Where(file_name, "footer", footer_offset);
  if (input.size() != kEncodedLength || file_size < kEncodedLength) {
    return Status::Corruption(where, "file too short for a table (" +
                                         std::to_string(file_size) + " bytes)");
  }
  const char* p = input.data();
  const uint64_t magic = DecodeFixed64(p + kHandlesLength + 4);
  if (magic != kBlockBasedTableMagicNumber) {
    return Status::Corruption(where, "bad magic number (not a strata table)");
  }
  const uint32_t version = DecodeFixed32(p + kHandlesLength);
  if (version != kBlockBasedTableFormatVersion &&
      version != kUserKeyIndexFormatVersion) {
    return Status::Corruption(
        where, "unsupported format version " + std::to_string(version));
  }
  Slice handles(p, kHandlesLength);
  if (!metaindex_handle.DecodeFrom(&handles) ||
      !index_handle.DecodeFrom(&handles)) {
    return Status::Corruption(where, "malformed block handle");
  }
  // The padding is zeros: a flip there is a damaged file too.
  for (size_t i = 0; i < handles.size(); i++) {
    if (handles[i] != '\0') {
      return Status::Corruption(where, "non-zero padding");
    }
  }
  for (const BlockHandle* h : {&metaindex_handle, &index_handle}) {
    // Blocks end where the footer begins; no overflow: each term is
    // checked against a bound before the next is added.
    const uint64_t limit = footer_offset;
    if (h->offset() > limit || h->size() > limit - h->offset() ||
        kBlockTrailerSize > limit - h->offset() - h->size()) {
      return Status::Corruption(
          where, std::string(h == &index_handle ? "index" : "metaindex") +
                     " handle (offset " + std::to_string(h->offset()) +
                     ", size " + std::to_string(h->size()) +
                     ") reaches past the blocks of the file");
    }
  }
  format_version = version;
  return Status::OK();
}

Status Footer::CheckVersion(uint64_t properties_version) const {
  if (properties_version == format_version) return Status::OK();
  return Status::Corruption("format version " +
                            std::to_string(properties_version) +
                            " in the properties, " +
                            std::to_string(format_version) + " in the footer");
}

uint32_t ComputeBlockChecksum(const char* data, size_t n, char type) {
  return crc32c::Mask(crc32c::Extend(crc32c::Value(data, n), &type, 1));
}

Status ReadFooter(const RandomAccessFileReader* file, uint64_t file_size,
                  Footer* footer) {
  if (file_size < Footer::kEncodedLength) {
    return footer->DecodeFrom(Slice(), file->file_name(), file_size);
  }
  char buf[Footer::kEncodedLength];
  Slice result;
  Status s = file->Read(file_size - Footer::kEncodedLength,
                        Footer::kEncodedLength, &result, buf);
  if (!s.ok()) return s;
  if (result.size() != Footer::kEncodedLength) {
    return Status::Corruption(
        Where(file->file_name(), "footer", file_size - Footer::kEncodedLength),
        "truncated read (file shorter than " + std::to_string(file_size) +
            " bytes)");
  }
  return footer->DecodeFrom(result, file->file_name(), file_size);
}

Status ReadBlock(const RandomAccessFileReader* file, uint64_t file_size,
                 const BlockHandle& handle, bool verify_checksum,
                 BlockContents* contents, bool file_in_memory,
                 bool likely_compressed, FilePrefetchBuffer* prefetch,
                 const Slice* preread) {
  const std::string& name = file->file_name();
  const uint64_t offset = handle.offset();
  // Blocks lie before the footer; refuse anything else before allocating.
  const uint64_t limit = file_size >= Footer::kEncodedLength
                             ? file_size - Footer::kEncodedLength
                             : 0;
  if (offset > limit || handle.size() > limit - offset ||
      kBlockTrailerSize > limit - offset - handle.size()) {
    return Status::Corruption(BlockLocation(name, offset),
                              "size " + std::to_string(handle.size()) +
                                  " reaches past the blocks of the file (" +
                                  std::to_string(limit) + " bytes)");
  }
  const size_t n = static_cast<size_t>(handle.size());
  const size_t total = n + kBlockTrailerSize;
  // A compressed block of the usual size is read into the stack and
  // decompressed from there into its own memory: its stored bytes need
  // no allocation.
  char stack_buf[kBlockReadStackBuffer];
  std::unique_ptr<char[]> scratch;
  char* buf = nullptr;
  if (!file_in_memory && preread == nullptr) {
    if (likely_compressed && total <= sizeof(stack_buf)) {
      buf = stack_buf;
    } else {
      scratch.reset(new char[total]);
      buf = scratch.get();
    }
  }
  Slice got;
  Status s;
  if (preread != nullptr) {
    got = *preread;
  } else if (prefetch != nullptr && buf != nullptr) {
    s = prefetch->Read(offset, total, &got, buf);
  } else {
    s = file->Read(offset, total, &got, buf);
  }
  if (!s.ok()) return s;
  if (got.size() != total) {
    return Status::Corruption(BlockLocation(name, offset),
                              "truncated read (got " +
                                  std::to_string(got.size()) + " of " +
                                  std::to_string(total) + " bytes)");
  }
  const char* data = got.data();
  const char type = data[n];
  if (verify_checksum) {
    const uint32_t stored = DecodeFixed32(data + n + 1);
    const uint32_t actual = ComputeBlockChecksum(data, n, type);
    if (stored != actual) {
      return Status::Corruption(BlockLocation(name, offset),
                                "checksum mismatch");
    }
  }
  const auto ctype = static_cast<CompressionType>(type);
  if (ctype == kNoCompression) {
    if (scratch != nullptr && data == scratch.get()) {
      *contents = BlockContents(std::move(scratch), n);
    } else if (buf != nullptr || preread != nullptr) {
      // In the stack buffer, wherever the reader put it, or in a batch's
      // buffer: a copy.
      std::unique_ptr<char[]> copy(new char[n]);
      if (n > 0) std::memcpy(copy.get(), data, n);
      *contents = BlockContents(std::move(copy), n);
    } else {
      // The file's own memory (mmap), alive as long as the file.
      *contents = BlockContents(Slice(data, n));
    }
    return Status::OK();
  }
  if (ctype != kSnappyCompression && ctype != kZlibCompression) {
    return Status::Corruption(
        BlockLocation(name, offset),
        "unknown compression type " +
            std::to_string(static_cast<unsigned>(static_cast<uint8_t>(type))));
  }
  std::unique_ptr<char[]> raw;
  size_t raw_size = 0;
  s = UncompressBlock(ctype, Slice(data, n), &raw, &raw_size);
  if (!s.ok()) {
    const std::string what = BlockLocation(name, offset);
    return s.IsNotSupported() ? Status::NotSupported(what, s.getState())
                              : Status::Corruption(what, s.getState());
  }
  *contents = BlockContents(std::move(raw), raw_size);
  return Status::OK();
}

}  // namespace strata
