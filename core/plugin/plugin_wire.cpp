#include "plugin/plugin_wire.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace byoc {

namespace {

/// Waits until `fd` is ready for `events` or `deadline` passes; false on time out.
Result<bool> waitFor(int fd, short events, WireDeadline deadline) {
  for (;;) {
    int timeout = -1;
    if (deadline != WireDeadline::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return false;
      timeout = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd entry{fd, events, 0};
    const int ready = ::poll(&entry, 1, timeout);
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return makeError(std::string("poll: ") + std::strerror(errno));
  }
}

/// Room for the control message of one descriptor.
union DescriptorControl {
  char bytes[CMSG_SPACE(sizeof(int))];
  cmsghdr align;
};

/// Sends `data`, the first part of it with the descriptor `passed` when that is ≥ 0.
Status sendAll(int fd, const char* data, std::size_t size, WireDeadline deadline, int passed = -1) {
  while (size > 0) {
    BYOC_ASSIGN_OR_RETURN(bool ready, waitFor(fd, POLLOUT, deadline));
    if (!ready) return makeError("timed out");
    iovec part{const_cast<char*>(data), size};
    msghdr message{};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    DescriptorControl control{};
    if (passed >= 0) {
      message.msg_control = control.bytes;
      message.msg_controllen = sizeof control.bytes;
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(header), &passed, sizeof(int));
    }
    const ssize_t sent = ::sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return makeError(errno == EPIPE || errno == ECONNRESET ? "closed" : std::string("send: ") + std::strerror(errno));
    }
    data += sent;
    size -= static_cast<std::size_t>(sent);
    passed = -1;  // it went with the first byte
  }
  return Status::ok();
}

/// Receives `size` bytes; a descriptor that comes with them goes to `*received` if that is free,
/// else it is closed.
Status receiveAll(int fd, char* data, std::size_t size, WireDeadline deadline, int* received) {
  while (size > 0) {
    BYOC_ASSIGN_OR_RETURN(bool ready, waitFor(fd, POLLIN, deadline));
    if (!ready) return makeError("timed out");
    iovec part{data, size};
    msghdr message{};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    DescriptorControl control{};
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    const ssize_t got = ::recvmsg(fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); got >= 0 && header; header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
      const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (std::size_t i = 0; i < count; ++i) {
        int descriptor = -1;
        std::memcpy(&descriptor, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
        if (received && *received < 0) *received = descriptor;
        else ::close(descriptor);
      }
    }
    if (got == 0) return makeError("closed");
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return makeError(errno == ECONNRESET ? "closed" : std::string("recv: ") + std::strerror(errno));
    }
    data += got;
    size -= static_cast<std::size_t>(got);
  }
  return Status::ok();
}

}  // namespace

WireWriter& WireWriter::u32(uint32_t value) {
  payload_.append(reinterpret_cast<const char*>(&value), sizeof value);
  return *this;
}

WireWriter& WireWriter::i64(int64_t value) {
  payload_.append(reinterpret_cast<const char*>(&value), sizeof value);
  return *this;
}

WireWriter& WireWriter::bytes(std::string_view value) {
  i64(static_cast<int64_t>(value.size()));
  payload_.append(value);
  return *this;
}

WireWriter& WireWriter::tensorType(const byoc_dtype& dtype, const int64_t* shape, int32_t ndim) {
  u32(dtype.code).u32(dtype.bits).u32(dtype.lanes).i64(ndim);
  for (int32_t i = 0; i < ndim; ++i) i64(shape[i]);
  return *this;
}

bool WireReader::take(void* out, std::size_t size) {
  if (!ok_ || rest_.size() < size) {
    ok_ = false;
    std::memset(out, 0, size);
    return false;
  }
  std::memcpy(out, rest_.data(), size);
  rest_.remove_prefix(size);
  return true;
}

uint32_t WireReader::u32() {
  uint32_t value = 0;
  take(&value, sizeof value);
  return value;
}

int64_t WireReader::i64() {
  int64_t value = 0;
  take(&value, sizeof value);
  return value;
}

std::string_view WireReader::bytes() {
  const int64_t size = i64();
  if (!ok_ || size < 0 || static_cast<uint64_t>(size) > rest_.size()) {
    ok_ = false;
    return {};
  }
  std::string_view value = rest_.substr(0, static_cast<std::size_t>(size));
  rest_.remove_prefix(static_cast<std::size_t>(size));
  return value;
}

WireTensorType WireReader::tensorType() {
  WireTensorType type;
  type.dtype.code = static_cast<uint8_t>(u32());
  type.dtype.bits = static_cast<uint8_t>(u32());
  type.dtype.lanes = static_cast<uint16_t>(u32());
  const int64_t ndim = i64();
  // Each dimension takes 8 bytes of the payload: a rank past what is left is malformed.
  if (ndim < 0 || static_cast<uint64_t>(ndim) > rest_.size() / sizeof(int64_t)) {
    ok_ = false;
    return type;
  }
  for (int64_t i = 0; i < ndim; ++i) type.shape.push_back(i64());
  return type;
}

Status sendMessage(int fd, std::string_view payload, WireDeadline deadline, int passed) {
  const uint64_t size = payload.size();
  BYOC_TRY(sendAll(fd, reinterpret_cast<const char*>(&size), sizeof size, deadline, passed));
  return sendAll(fd, payload.data(), payload.size(), deadline);
}

Result<std::string> receiveMessage(int fd, WireDeadline deadline, uint64_t maxBytes, int* received) {
  int descriptor = -1;
  // Closes a descriptor that came with a message that is then refused.
  auto fail = [&](Diagnostic error) {
    if (descriptor >= 0) ::close(descriptor);
    return error;
  };
  uint64_t size = 0;
  if (Status header = receiveAll(fd, reinterpret_cast<char*>(&size), sizeof size, deadline, &descriptor); !header) return fail(header.error());
  if (size > maxBytes)
    return fail(makeError("a message of " + std::to_string(size) + " bytes, more than the " + std::to_string(maxBytes) + " expected"));
  std::string payload(size, '\0');
  if (Status body = receiveAll(fd, payload.data(), payload.size(), deadline, &descriptor); !body) return fail(body.error());
  if (received) *received = descriptor;
  else if (descriptor >= 0) ::close(descriptor);
  return payload;
}

}  // namespace byoc
