#include <QTemporaryDir>
#include <QtTest>

#include "runtime/ndarray.h"
#include "runtime/npy.h"
#include "support/limits.h"

using namespace byoc;

namespace {

/// A .npy file with the given header dictionary and `dataBytes` bytes of data.
std::string npyWith(const std::string& dict, std::size_t dataBytes) {
  std::string header = dict;
  std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + std::string(dataBytes, '\0');
}

}  // namespace

/// NDArray storage and views; .npy reading and writing with precise errors.
class TestNDArray : public QObject {
  Q_OBJECT

 private slots:
  void storageIsAligned() {
    for (int64_t n : {1, 3, 17, 1000}) {
      NDArray array = NDArray::empty(DType::Float32, {n});
      QCOMPARE(reinterpret_cast<uintptr_t>(array.bytes()) % kStorageAlignment, uintptr_t{0});
    }
  }

  /// Shapes from user input or a model's data are allocated through `NDArray::allocate`: one past
  /// the tensor limits, or whose bytes would take the live tensors past the runtime's memory
  /// limit, is an error naming the array and its bytes, and nothing is held for it.
  void allocationsPastTheLimitsAreErrors() {
    const int64_t held = Storage::liveBytes();
    Result<NDArray> huge = NDArray::allocate(DType::Int64, {65536, 65536});
    QVERIFY(!huge.isOk());
    QCOMPARE(huge.error().message,
             std::string("cannot allocate int64 (65536, 65536) (34359738368 bytes): more than the 8589934592 bytes "
                         "all tensors may hold at once (the limit of the runtime's memory)"));
    Result<NDArray> tooMany = NDArray::allocate(DType::Int8, {65536, 65537});
    QVERIFY(!tooMany.isOk());
    QCOMPARE(tooMany.error().message,
             std::string("cannot allocate int8 (65536, 65537): more than 4294967296 elements (the limit of one tensor)"));
    Result<NDArray> negative = NDArray::allocate(DType::Float32, {2, -1});
    QVERIFY(!negative.isOk());
    QCOMPARE(negative.error().message, std::string("cannot allocate float32 (2, -1): dimension 1 is -1, expected 0 or more"));
    QCOMPARE(Storage::liveBytes(), held);
  }

  /// The limit counts every live tensor: a second allocation that fits alone but not beside the
  /// first is refused, and the first one's bytes are free again once it is gone.
  void theMemoryLimitCountsLiveTensors() {
    const int64_t held = Storage::liveBytes();
    const int64_t half = limits::kMaxLiveTensorBytes / 2;
    {
      // Reserved, never written: the pages of an untouched allocation are not backed.
      Result<std::shared_ptr<Storage>> first = Storage::allocate(static_cast<std::size_t>(half));
      QVERIFY2(first.isOk(), first ? "" : first.error().message.c_str());
      Result<std::shared_ptr<Storage>> second = Storage::allocate(static_cast<std::size_t>(half + 64));
      QVERIFY(!second.isOk());
      QCOMPARE(second.error().message, "with the " + std::to_string(held + half) + " bytes other tensors hold, more than the " +
                                           std::to_string(limits::kMaxLiveTensorBytes) +
                                           " bytes all tensors may hold at once (the limit of the runtime's memory)");
    }
    QCOMPARE(Storage::liveBytes(), held);
    Result<std::shared_ptr<Storage>> again = Storage::allocate(static_cast<std::size_t>(half + 64));
    QVERIFY(again.isOk());
  }

  void reshapeSharesAndCloneCopies() {
    const float values[] = {1, 2, 3, 4, 5, 6};
    NDArray array = NDArray::fromFloats({2, 3}, values);
    NDArray view = array.reshaped({3, 2});
    QVERIFY(view.sharesStorage(array));
    QCOMPARE(view.shape(), (Shape{3, 2}));
    NDArray copy = array.clone();
    QVERIFY(!copy.sharesStorage(array));
    copy.data<float>()[0] = 42;
    QCOMPARE(array.data<float>()[0], 1.0f);
    QCOMPARE(view.elementAsDouble(5), 6.0);
  }

  void zerosAreZero() {
    NDArray array = NDArray::zeros(DType::Int64, {4, 5});
    for (int64_t i = 0; i < 20; ++i) QCOMPARE(array.data<int64_t>()[i], int64_t{0});
    QCOMPARE(array.byteSize(), std::size_t{160});
  }

  void npyRoundTrip_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<QString>("shape");
    QTest::newRow("float32 2-d") << int(DType::Float32) << "2,3";
    QTest::newRow("int64 vector") << int(DType::Int64) << "5";
    QTest::newRow("bool scalar") << int(DType::Bool) << "";
    QTest::newRow("uint8 4-d") << int(DType::UInt8) << "1,2,3,4";
    QTest::newRow("float64 empty") << int(DType::Float64) << "0,3";
  }
  void npyRoundTrip() {
    QFETCH(int, dtype);
    QFETCH(QString, shape);
    Shape dims;
    for (const QString& part : shape.split(',', Qt::SkipEmptyParts)) dims.push_back(part.toLongLong());
    NDArray array = NDArray::empty(static_cast<DType>(dtype), dims);
    for (std::size_t i = 0; i < array.byteSize(); ++i) array.bytes()[i] = std::byte(i % 2);
    Result<std::string> encoded = encodeNpy(array);
    QVERIFY(encoded.isOk());
    QCOMPARE((encoded->size() - array.byteSize()) % 64, std::size_t{0});
    Result<NDArray> decoded = parseNpy(*encoded, "a.npy");
    QVERIFY2(decoded.isOk(), decoded.isOk() ? "" : decoded.error().str().c_str());
    QCOMPARE(decoded->dtype(), array.dtype());
    QCOMPARE(decoded->shape(), array.shape());
    QVERIFY(std::equal(array.bytes(), array.bytes() + array.byteSize(), decoded->bytes()));
  }

  void readsNumpyWrittenHeader() {
    // The header NumPy itself writes for np.arange(6, dtype=np.float32).reshape(2, 3).
    std::string file = npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24);
    Result<NDArray> array = parseNpy(file, "x.npy");
    QVERIFY(array.isOk());
    QCOMPARE(array->shape(), (Shape{2, 3}));
    QCOMPARE(array->dtype(), DType::Float32);
  }

  void writeAndReadFile() {
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/out.npy").toStdString();
    const float values[] = {0.5f, -1.25f};
    QVERIFY(writeNpy(path, NDArray::fromFloats({2}, values)).isOk());
    Result<NDArray> back = readNpy(path);
    QVERIFY(back.isOk());
    QCOMPARE(back->data<float>()[1], -1.25f);
  }

  void badFiles_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("error");
    QTest::newRow("magic") << QByteArray("PK\x03\x04 not numpy") << "bad.npy: not a .npy file: expected the magic string \\x93NUMPY at the start";
    QTest::newRow("short") << QByteArray("\x93NUMPY\x01", 7) << "bad.npy: truncated .npy file: the header is incomplete";
    QTest::newRow("version") << QByteArray("\x93NUMPY\x07\x00\x00\x00", 10) << "bad.npy: unsupported .npy version 7; expected 1, 2 or 3";
    QTest::newRow("big-endian")
        << QByteArray::fromStdString(npyWith("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", 4))
        << "bad.npy: unsupported .npy dtype '>f4'; expected little-endian float16/32/64, int8/16/32/64, uint8 or bool";
    QTest::newRow("fortran")
        << QByteArray::fromStdString(npyWith("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16))
        << "bad.npy: Fortran-ordered .npy arrays are not supported; save in C order";
    QTest::newRow("truncated data")
        << QByteArray::fromStdString(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20))
        << "bad.npy: truncated or oversized .npy file: float32 (2, 3) needs 24 data bytes, found 20";
    QTest::newRow("missing key")
        << QByteArray::fromStdString(npyWith("{'descr': '<f4', 'shape': (2,), }", 8))
        << "bad.npy: bad .npy header: expected the keys 'descr', 'fortran_order' and 'shape'";
    QTest::newRow("bad shape")
        << QByteArray::fromStdString(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", 8))
        << "bad.npy: bad .npy header: 'shape' must be a tuple of non-negative integers";
  }
  void badFiles() {
    QFETCH(QByteArray, content);
    QFETCH(QString, error);
    Result<NDArray> array = parseNpy(content.toStdString(), "bad.npy");
    QVERIFY(!array.isOk());
    QCOMPARE(QString::fromStdString(array.error().str()), error);
  }

  void missingFileNamesThePath() {
    Result<NDArray> array = readNpy("/nonexistent/input.npy");
    QVERIFY(!array.isOk());
    QVERIFY(QString::fromStdString(array.error().str()).startsWith("/nonexistent/input.npy: cannot open"));
  }

  void bfloat16CannotBeSaved() {
    Result<std::string> encoded = encodeNpy(NDArray::zeros(DType::BFloat16, {2}));
    QVERIFY(!encoded.isOk());
    QCOMPARE(QString::fromStdString(encoded.error().message), QString("cannot store bfloat16 in a .npy file"));
  }
};

QTEST_GUILESS_MAIN(TestNDArray)
#include "test_ndarray.moc"
