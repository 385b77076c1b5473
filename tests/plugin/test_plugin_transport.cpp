/// \file
/// How tensors reach a plugin host: the arena of shared memory (laid out at 64-byte offsets,
/// sealed so that the host cannot shrink it under the program's mapping, bounds-checked on the
/// host's side) and its descriptor passed along a message of the socket.

#include <sys/socket.h>
#include <unistd.h>

#include <QtTest>
#include <array>
#include <cstring>

#include "plugin/plugin_arena.h"
#include "plugin/plugin_wire.h"

using namespace byoc;

class TestPluginTransport : public QObject {
  Q_OBJECT

 private slots:
  void tensorsAreLaidOutAt64ByteOffsets() {
    const std::array<uint64_t, 4> sizes{4, 0, 130, 64};
    const ArenaLayout layout = layoutTensors(sizes);
    QCOMPARE(layout.offsets, (std::vector<uint64_t>{0, 64, 64, 256}));
    QCOMPARE(layout.size, uint64_t(320));
    QCOMPARE(layoutTensors({}).size, uint64_t(0));
  }

  void anArenaHoldsOnlyWhatLiesInsideIt() {
    PluginArena arena = PluginArena::create(100).value();
    const auto size = static_cast<int64_t>(arena.size());
    QVERIFY(size >= 100);
    QVERIFY(arena.holds(0, size));
    QVERIFY(arena.holds(size, 0));
    QVERIFY(!arena.holds(size, 1));
    QVERIFY(!arena.holds(1, size));
    QVERIFY(!arena.holds(-1, 1));
    QVERIFY(!arena.holds(0, -1));
    QVERIFY(!arena.holds(8, std::numeric_limits<int64_t>::max()));  // offset + bytes would overflow
  }

  // The host may not shrink (or grow) the memory the program has mapped: reading a truncated
  // mapping would kill the program with SIGBUS.
  void anArenaIsSealedAtItsSize() {
    PluginArena arena = PluginArena::create(4096).value();
    QCOMPARE(::ftruncate(arena.descriptor(), 0), -1);
    QCOMPARE(errno, EPERM);
    QCOMPARE(::ftruncate(arena.descriptor(), static_cast<off_t>(arena.size() * 2)), -1);
  }

  void anArenaPassedAlongAMessageIsTheSameMemory() {
    int sockets[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets), 0);
    PluginArena sent = PluginArena::create(256).value();
    std::memcpy(sent.data() + 64, "tensor", 6);
    QVERIFY(sendMessage(sockets[0], "run", WireDeadline::max(), sent.descriptor()));
    QVERIFY(sendMessage(sockets[0], "again", WireDeadline::max()));
    int received = -1;
    QCOMPARE(receiveMessage(sockets[1], WireDeadline::max(), 16, &received).value(), std::string("run"));
    QVERIFY(received >= 0);
    PluginArena adopted = PluginArena::adopt(received).value();
    QCOMPARE(adopted.size(), sent.size());
    QCOMPARE(std::string(adopted.data() + 64, 6), std::string("tensor"));
    std::memcpy(adopted.data(), "output", 6);
    QCOMPARE(std::string(sent.data(), 6), std::string("output"));
    // A message without a descriptor leaves the slot empty.
    int none = -1;
    QCOMPARE(receiveMessage(sockets[1], WireDeadline::max(), 16, &none).value(), std::string("again"));
    QCOMPARE(none, -1);
    ::close(sockets[0]);
    ::close(sockets[1]);
  }

  void aMessageLargerThanExpectedIsRefusedAndItsDescriptorClosed() {
    int sockets[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets), 0);
    PluginArena sent = PluginArena::create(64).value();
    QVERIFY(sendMessage(sockets[0], std::string(100, 'x'), WireDeadline::max(), sent.descriptor()));
    int received = -1;
    Result<std::string> message = receiveMessage(sockets[1], WireDeadline::max(), 16, &received);
    QVERIFY(!message);
    QCOMPARE(message.error().message, std::string("a message of 100 bytes, more than the 16 expected"));
    QCOMPARE(received, -1);
    ::close(sockets[0]);
    ::close(sockets[1]);
  }
};

QTEST_GUILESS_MAIN(TestPluginTransport)
#include "test_plugin_transport.moc"
