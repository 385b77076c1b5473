#include <QtTest>

#include "export/npz_writer.h"
#include "export/relay_params.h"
#include "runtime/npy.h"
#include "test_files.h"
#include "text/parser.h"
#include "text/printer.h"
#include "zip_reader.h"

using namespace byoc;
using byoc::testing::readStoredZip;
using byoc::testing::ZipEntry;

namespace {

std::vector<ZipEntry> readBack(const std::string& archive) {
  std::string problem;
  std::optional<std::vector<ZipEntry>> entries = readStoredZip(archive, problem);
  if (!entries) qFatal("unreadable archive: %s", problem.c_str());
  return *entries;
}

}  // namespace

/// `.npz` archives: CRC-32, the stored zip layout, the arrays of a Relay text's metadata.
class TestNpz : public QObject {
  Q_OBJECT

 private slots:
  void crc32MatchesTheStandardCheckValue() {
    QCOMPARE(crc32("123456789"), 0xCBF43926u);
    QCOMPARE(crc32(""), 0u);
  }

  void zipMembersReadBackWithNamesSizesAndCrcs() {
    std::string binary("\0\x01\xff\x80", 4);
    Result<std::string> archive = writeZipStored({{"a.npy", "first"}, {"dir/b.bin", binary}, {"empty", ""}, {"é.txt", "x"}});
    QVERIFY(archive.isOk());
    std::vector<ZipEntry> entries = readBack(*archive);
    QCOMPARE(entries.size(), std::size_t{4});
    QCOMPARE(entries[0].name, std::string("a.npy"));
    QCOMPARE(entries[0].data, std::string("first"));
    QCOMPARE(entries[0].crc, crc32("first"));
    QCOMPARE(entries[1].name, std::string("dir/b.bin"));
    QCOMPARE(entries[1].data, binary);
    QCOMPARE(entries[2].data, std::string());
    QCOMPARE(entries[3].name, std::string("é.txt"));
    // The non-ASCII name is flagged as UTF-8 (general purpose bit 11) in its local header.
    const std::size_t local = archive->find(std::string("PK\x03\x04\x14\x00\x00\x08", 8));
    QVERIFY(local != std::string::npos);
    QCOMPARE(archive->substr(local + 30, entries[3].name.size()), entries[3].name);
  }

  void theSameMembersGiveTheSameBytes() {
    QCOMPARE(*writeZipStored({{"x", "1"}}), *writeZipStored({{"x", "1"}}));
    QCOMPARE(writeZipStored({})->size(), std::size_t{22});
  }

  void badMemberNamesAreErrors() {
    Result<std::string> twice = writeZipStored({{"a.npy", "1"}, {"a.npy", "2"}});
    QVERIFY(!twice.isOk());
    QCOMPARE(twice.error().message, std::string("the zip member 'a.npy' is given twice"));
    Result<std::string> unnamed = writeZipStored({{"", "1"}});
    QVERIFY(!unnamed.isOk());
    QCOMPARE(unnamed.error().message, std::string("a zip member needs a name of 1 to 65535 bytes"));
  }

  void npzMembersAreNpyFiles() {
    const float values[] = {1.5f, -2.0f, 0.25f, 8.0f, 0.0f, -0.5f};
    NDArray matrix = NDArray::fromFloats({2, 3}, values);
    NDArray indices = NDArray::zeros(DType::Int64, {4});
    Result<std::string> npz = encodeNpz({{"w", matrix}, {"idx", indices}});
    QVERIFY(npz.isOk());
    std::vector<ZipEntry> entries = readBack(*npz);
    QCOMPARE(entries.size(), std::size_t{2});
    QCOMPARE(entries[0].name, std::string("w.npy"));
    QCOMPARE(entries[1].name, std::string("idx.npy"));
    QCOMPARE(entries[0].data, *encodeNpy(matrix));
    Result<NDArray> back = parseNpy(entries[1].data, "idx.npy");
    QVERIFY(back.isOk());
    QCOMPARE(back->dtype(), DType::Int64);
    QCOMPARE(back->shape(), (Shape{4}));
  }

  void arraysNumpyCannotHoldAreErrors() {
    Result<std::string> npz = encodeNpz({{"half", NDArray::zeros(DType::BFloat16, {2})}});
    QVERIFY(!npz.isOk());
    QCOMPARE(npz.error().message, std::string("array 'half': cannot store bfloat16 in a .npy file"));
  }

  void relayConstantsAreNamedAsTheTextRefersToThem() {
    Result<Module> module = parseModule(byoc::testing::readTestData(QStringLiteral("export/params.relay")));
    QVERIFY(module.isOk());
    const std::string text = printModule(*module);
    Result<std::vector<TensorData>> constants = parseMetadataConstants(text);
    QVERIFY(constants.isOk());
    QCOMPARE(constants->size(), std::size_t{3});
    Result<std::string> npz = relayConstantsNpz(text);
    QVERIFY(npz.isOk());
    std::vector<ZipEntry> entries = readBack(*npz);
    QCOMPARE(entries.size(), constants->size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      QCOMPARE(entries[i].name, relayConstantName(i) + ".npy");
      QVERIFY(text.find(relayConstantName(i)) < text.find("#[metadata]"));
      Result<NDArray> array = parseNpy(entries[i].data, entries[i].name);
      QVERIFY(array.isOk());
      QCOMPARE(array->dtype(), (*constants)[i].dtype());
      QCOMPARE(array->shape(), (*constants)[i].shape());
      QVERIFY(std::equal((*constants)[i].bytes().begin(), (*constants)[i].bytes().end(), array->bytes()));
    }
    QCOMPARE(relayConstantName(2), std::string("meta[relay.Constant][2]"));
  }

  void textWithoutTensorConstantsGivesAnEmptyArchive() {
    Result<std::string> npz = relayConstantsNpz("def @main(%x: float32) {\n  add(%x, 1f)\n}\n");
    QVERIFY(npz.isOk());
    QVERIFY(readBack(*npz).empty());
  }

  void aBrokenMetadataSectionIsAnError() {
    Result<std::string> npz = relayConstantsNpz("def @main() {\n  meta[relay.Constant][0]\n}\n#[metadata]\n{\"relay.Constant\": 3}\n");
    QVERIFY(!npz.isOk());
    QCOMPARE(npz.error().str(), std::string("<input>:4:1: metadata: relay.Constant must be a list"));
  }
};

QTEST_GUILESS_MAIN(TestNpz)
#include "test_npz.moc"
