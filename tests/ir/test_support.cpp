#include <QtTest>

#include <filesystem>

#include "support/base64.h"
#include "support/dims_text.h"
#include "support/file_io.h"
#include "support/limits.h"
#include "support/ref.h"

using namespace byoc;

namespace {

/// A node that owns the next one, to build long ownership chains.
struct Link final : Object {
  Ref<const Link> next;
  static inline int alive = 0;
  Link() { ++alive; }
  ~Link() override { --alive; }
};

std::vector<std::byte> bytesOf(std::string_view text) {
  std::vector<std::byte> bytes;
  for (char c : text) bytes.push_back(static_cast<std::byte>(c));
  return bytes;
}

}  // namespace

/// Reference counting, base64 and atomic file writes.
class TestSupport : public QObject {
  Q_OBJECT

 private slots:
  void releasingALongChainFreesEveryNode() {
    {
      Ref<const Link> head = makeRef<const Link>();
      for (int i = 0; i < 1000000; ++i) {
        auto link = makeRef<Link>();
        link->next = head;
        head = link;
      }
      QCOMPARE(Link::alive, 1000001);
    }
    QCOMPARE(Link::alive, 0);
  }

  void base64RoundTrips_data() {
    QTest::addColumn<QString>("plain");
    QTest::addColumn<QString>("encoded");
    QTest::newRow("empty") << "" << "";
    QTest::newRow("one") << "f" << "Zg==";
    QTest::newRow("two") << "fo" << "Zm8=";
    QTest::newRow("three") << "foo" << "Zm9v";
    QTest::newRow("six") << "foobar" << "Zm9vYmFy";
  }
  void base64RoundTrips() {
    QFETCH(QString, plain);
    QFETCH(QString, encoded);
    std::vector<std::byte> bytes = bytesOf(plain.toStdString());
    QCOMPARE(QString::fromStdString(base64Encode(bytes)), encoded);
    auto decoded = base64Decode(encoded.toStdString());
    QVERIFY(decoded.has_value());
    QVERIFY(*decoded == bytes);
  }

  void base64RejectsMalformedText() {
    QVERIFY(!base64Decode("Zm9").has_value());
    QVERIFY(!base64Decode("Zm9*").has_value());
    QVERIFY(!base64Decode("Z===").has_value());
    QVERIFY(!base64Decode("Zg==Zg==").has_value());
  }

  void atomicWriteReplacesTheWholeFile() {
    QTemporaryDir dir;
    std::string path = (std::filesystem::path(dir.path().toStdString()) / "out.txt").string();
    QVERIFY(writeFileAtomic(path, "first version, rather long").isOk());
    QVERIFY(writeFileAtomic(path, "second").isOk());
    QCOMPARE(readFile(path).value(), std::string("second"));
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path().toStdString())) ++entries;
    QCOMPARE(entries, std::size_t{1});  // no temporary left behind
  }

  void failedWriteLeavesNoTrace() {
    Status status = writeFileAtomic("/nonexistent-dir/out.txt", "x");
    QVERIFY(!status.isOk());
    QVERIFY(status.error().str().find("/nonexistent-dir/out.txt") != std::string::npos);
  }

  void elementCountsAreChecked() {
    using byoc::limits::elementCount;
    const std::vector<int64_t> small{2, 3, 4};
    QCOMPARE(elementCount(small), std::optional<int64_t>(24));
    const std::vector<int64_t> overflowing{int64_t{1} << 32, int64_t{1} << 32, int64_t{1} << 32};
    QVERIFY(!elementCount(overflowing));
    const std::vector<int64_t> negative{4, -3};
    QVERIFY(!elementCount(negative));
    const std::vector<int64_t> hugeButEmpty{0, int64_t{1} << 40, int64_t{1} << 40};
    QVERIFY2(!elementCount(hugeButEmpty), "a huge shape stays refused when one dimension is 0");
    const std::vector<int64_t> empty{0, 5};
    QCOMPARE(elementCount(empty), std::optional<int64_t>(0));
    QCOMPARE(elementCount({}), std::optional<int64_t>(1));
  }

  void shapeProblemsNameTheLimit() {
    using byoc::limits::shapeProblem;
    const std::vector<int64_t> fine{1, 3, 224, 224};
    QCOMPARE(shapeProblem(fine), std::string());
    const std::vector<int64_t> negative{1, -3};
    QCOMPARE(shapeProblem(negative), std::string("dimension 1 is -3, expected 0 or more"));
    const std::vector<int64_t> deep(33, 1);
    QCOMPARE(shapeProblem(deep), std::string("rank 33 exceeds the limit of 32 dimensions"));
    const std::vector<int64_t> huge{int64_t{1} << 20, int64_t{1} << 20};
    QCOMPARE(shapeProblem(huge), std::string("more than 4294967296 elements (the limit of one tensor)"));
  }

  void typeShapesAllowUnknownDimensions() {
    using byoc::limits::typeShapeProblem;
    const std::vector<int64_t> unknown{-1, 3, -1};
    QCOMPARE(typeShapeProblem(unknown), std::string());
    const std::vector<int64_t> negative{-1, -3};
    QCOMPARE(typeShapeProblem(negative), std::string("dimension 1 is -3, expected 0 or more"));
    const std::vector<int64_t> huge{-1, int64_t{1} << 20, int64_t{1} << 20};
    QCOMPARE(typeShapeProblem(huge), std::string("more than 4294967296 elements (the limit of one tensor)"));
    const std::vector<int64_t> deep(33, -1);
    QCOMPARE(typeShapeProblem(deep), std::string("rank 33 exceeds the limit of 32 dimensions"));
  }

  void jsonNestingIgnoresBracketsInStrings() {
    using byoc::limits::jsonNestingDepth;
    QCOMPARE(jsonNestingDepth("{\"a\": [1, {\"b\": \"[[[[\"}]}"), 3);
    QCOMPARE(jsonNestingDepth("[\"\\\"\", \"\\\"[\", [[]]]"), 3);
    QCOMPARE(jsonNestingDepth(std::string(100000, '[')), 100000);
    QCOMPARE(jsonNestingDepth("42"), 0);
  }

  /// Shapes as text: 'x', '×', commas and spaces join sizes, parentheses may enclose them; a `?`,
  /// a word, a negative or too large size, no size at all and too many sizes are each named.
  void dimsTextReadsShapesAndNamesWhatIsNot() {
    using Problem = DimsText::Problem;
    for (const char* text : {"1x16x256", "1\xC3\x97" "16\xC3\x97" "256", "(1, 16, 256)", " 1 X 16,256 "}) {
      const DimsText dims = readDims(text);
      QCOMPARE(dims.problem, Problem::None);
      QCOMPARE(dims.sizes, (std::vector<int64_t>{1, 16, 256}));
    }
    QCOMPARE(readDims("4294967296x0").sizes, (std::vector<int64_t>{4294967296, 0}));
    QCOMPARE(readDims("4x?").problem, Problem::Unknown);
    QCOMPARE(readDims("4x?").index, std::size_t{1});
    for (const char* text : {"ax4", "-3x4", "4294967297x4", "18446744073709551617", "", "()", "1.5", "1xx2", "x4", "4,"})
      QCOMPARE(readDims(text).problem, Problem::NotASize);
    std::string many = "1";
    for (int i = 0; i < 32; ++i) many += "x1";
    QCOMPARE(readDims(many).problem, Problem::TooMany);
  }

  void readingAMissingFileNamesIt() {
    Result<std::string> content = readFile("/nonexistent-dir/model.relay");
    QVERIFY(!content.isOk());
    QCOMPARE(QString::fromStdString(content.error().str()),
             QStringLiteral("/nonexistent-dir/model.relay: cannot open: No such file or directory"));
  }
};

QTEST_GUILESS_MAIN(TestSupport)
#include "test_support.moc"
