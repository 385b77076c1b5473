#include <QtTest>

#include <cstring>

#include "export/manifest.h"
#include "export/safetensors.h"
#include "export/sha256.h"

using namespace byoc;

namespace {

/// An 8-byte little-endian length, then `header`, then `data`.
std::string safetensorsFile(const std::string& header, const std::string& data, uint64_t declaredLength) {
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((declaredLength >> (8 * i)) & 0xff);
  return file + header + data;
}

std::string validManifest(const std::string& versionValue, const std::string& artifact = "artifacts/f.json") {
  const std::string digest(64, 'a');
  return "{\"format\": \"byoc-export\", \"format_version\": " + versionValue +
         ", \"producer\": \"byoc-studio 0.1.0\", \"targets\": [{\"name\": \"dnnl\", \"codegen\": \"dnnl\"}],\n"
         "   \"host_module\": \"host.json\", \"host_text\": \"host.relay\", \"params\": \"params.safetensors\",\n"
         "   \"external_functions\": [{\"name\": \"f\", \"symbol\": \"f\", \"compiler\": \"dnnl\", \"codegen\": \"dnnl\", \"artifact\": \"" +
         artifact + "\"}],\n"
         "   \"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [1, 2]}], \"outputs\": [{\"dtype\": \"float32\", \"shape\": [1]}],\n"
         "   \"files\": {\"host.json\": \"" + digest + "\", \"host.relay\": \"" + digest + "\", \"params.safetensors\": \"" + digest +
         "\", \"" + artifact + "\": \"" + digest + "\"}}";
}

}  // namespace

/// The readers of untrusted export bytes: SHA-256, safetensors, manifest.
class TestExportFormat : public QObject {
  Q_OBJECT

 private slots:
  void sha256MatchesTheStandardVectors_data() {
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("two blocks") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    QTest::newRow("million a") << QByteArray(1000000, 'a') << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
  }
  void sha256MatchesTheStandardVectors() {
    QFETCH(QByteArray, input);
    QFETCH(QString, digest);
    QCOMPARE(QString::fromStdString(sha256Hex(std::string_view(input.constData(), input.size()))), digest);
  }

  void safetensorsRoundTrips() {
    const float values[3] = {1.5f, -2.0f, 3.25f};
    const int64_t counts[1] = {7};
    std::vector<SafetensorsTensor> tensors = {
        {"weight", "F32", {3}, std::as_bytes(std::span(values))},
        {"count", "I64", {}, std::as_bytes(std::span(counts))},
    };
    const std::string file = writeSafetensors(tensors, {{"format", "byoc-export"}});
    Result<SafetensorsIndex> index = parseSafetensors(file, "p.safetensors");
    QVERIFY2(index.isOk(), index.isOk() ? "" : index.error().str().c_str());
    QCOMPARE(index->entries.size(), std::size_t(2));
    QCOMPARE(index->metadata.at("format"), std::string("byoc-export"));
    const SafetensorsEntry* weight = index->find("weight");
    QVERIFY(weight);
    QCOMPARE(weight->shape, (std::vector<int64_t>{3}));
    QCOMPARE(weight->begin % 8, uint64_t(0));
    const std::string_view bytes = index->bytesOf(*weight);
    QCOMPARE(bytes.size(), sizeof values);
    QCOMPARE(std::memcmp(bytes.data(), values, sizeof values), 0);
    const SafetensorsEntry* count = index->find("count");
    QVERIFY(count);
    QCOMPARE(count->dtype, std::string("I64"));
    QVERIFY(count->shape.empty());
    QVERIFY(!index->find("missing"));
  }

  void safetensorsRejectsBadFiles_data() {
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("error");
    auto bytes = [](const std::string& text) { return QByteArray(text.data(), static_cast<qsizetype>(text.size())); };
    const std::string f32Two = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    QTest::newRow("shorter than the length") << QByteArray("abc")
                                             << "p.safetensors: truncated: 3 bytes, expected at least the 8-byte header length";
    QTest::newRow("header cut") << bytes(safetensorsFile(f32Two.substr(0, 10), "", f32Two.size()))
                                << "p.safetensors: truncated: the header is 54 bytes but only 10 follow the length";
    QTest::newRow("huge length") << bytes(safetensorsFile("{}", "", ~uint64_t(0)))
                                 << "p.safetensors: truncated: the header is 18446744073709551615 bytes but only 2 follow the length";
    QTest::newRow("offsets past the data")
        << bytes(safetensorsFile(f32Two, std::string(4, '\0'), f32Two.size()))
        << "p.safetensors: tensor 'a': data_offsets [0, 8] run past the data (4 bytes)";
    const std::string f32Three = "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}";
    QTest::newRow("size differs from shape")
        << bytes(safetensorsFile(f32Three, std::string(8, '\0'), f32Three.size()))
        << "p.safetensors: tensor 'a': holds 8 bytes, expected 12 for its shape and dtype";
    const std::string reversed = "{\"a\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,2]}}";
    QTest::newRow("begin after end") << bytes(safetensorsFile(reversed, std::string(8, '\0'), reversed.size()))
                                     << "p.safetensors: tensor 'a': data_offsets [4, 2] begin after end";
    const std::string overflow = "{\"a\":{\"dtype\":\"F64\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}}";
    QTest::newRow("element count overflows")
        << bytes(safetensorsFile(overflow, std::string(8, '\0'), overflow.size()))
        << "p.safetensors: tensor 'a': holds 8 bytes, expected more than 2^63 for its shape and dtype";
    const std::string badDType = "{\"a\":{\"dtype\":\"Q4\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    QTest::newRow("unknown dtype") << bytes(safetensorsFile(badDType, std::string(8, '\0'), badDType.size()))
                                   << "p.safetensors: tensor 'a': unknown dtype \"Q4\"";
    const std::string negative = "{\"a\":{\"dtype\":\"U8\",\"shape\":[-1],\"data_offsets\":[0,1]}}";
    QTest::newRow("negative dimension") << bytes(safetensorsFile(negative, std::string(8, '\0'), negative.size()))
                                        << "p.safetensors: tensor 'a': shape holds -1, expected non-negative integers";
    QTest::newRow("not JSON") << bytes(safetensorsFile("{\"a\":", "", 5)) << "p.safetensors: the header is not a JSON object";
    const std::string noOffsets = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1]}}";
    QTest::newRow("missing offsets")
        << bytes(safetensorsFile(noOffsets, "", noOffsets.size()))
        << "p.safetensors: tensor 'a': expected \"data_offsets\": [begin, end] with non-negative integers";
  }
  void safetensorsRejectsBadFiles() {
    QFETCH(QByteArray, file);
    QFETCH(QString, error);
    Result<SafetensorsIndex> index = parseSafetensors(std::string_view(file.constData(), file.size()), "p.safetensors");
    QVERIFY(!index.isOk());
    QCOMPARE(QString::fromStdString(index.error().str()), error);
  }

  void manifestRoundTrips() {
    Result<Manifest> parsed = parseManifest(validManifest("1"), "manifest.json");
    QVERIFY2(parsed.isOk(), parsed.isOk() ? "" : parsed.error().str().c_str());
    QCOMPARE(parsed->functions.size(), std::size_t(1));
    QCOMPARE(parsed->functions[0].artifact, std::string("artifacts/f.json"));
    QCOMPARE(parsed->inputs[0].shape, (std::vector<int64_t>{1, 2}));
    Result<Manifest> again = parseManifest(writeManifest(*parsed), "manifest.json");
    QVERIFY(again.isOk());
    QCOMPARE(writeManifest(*again), writeManifest(*parsed));
  }

  void manifestRejectsBadInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("newer version") << QString::fromStdString(validManifest("3"))
                                   << "manifest.json: /format_version: format version 3 is newer than this program reads (2)";
    QTest::newRow("version not a number") << QString::fromStdString(validManifest("\"1\""))
                                          << "manifest.json: /format_version: expected an integer";
    QTest::newRow("path leaving the directory")
        << QString::fromStdString(validManifest("1", "../secret.json"))
        << "manifest.json: /external_functions/0/artifact: expected a relative path inside the export directory";
    QTest::newRow("not JSON") << "{\"format\":" << "manifest.json:1:11: not valid JSON";
    QTest::newRow("wrong format") << "{\"format\": \"onnx\"}" << "manifest.json: /format: expected \"byoc-export\", found \"onnx\"";
    QTest::newRow("missing field") << "{\"format\": \"byoc-export\", \"format_version\": 1}" << "manifest.json: /producer: missing";
  }
  void manifestRejectsBadInput() {
    QFETCH(QString, text);
    QFETCH(QString, error);
    Result<Manifest> parsed = parseManifest(text.toStdString(), "manifest.json");
    QVERIFY(!parsed.isOk());
    QCOMPARE(QString::fromStdString(parsed.error().str()), error);
  }

  void manifestRequiresAChecksumForEveryFile() {
    std::string text = validManifest("1");
    const std::string entry = "\"host.relay\": \"" + std::string(64, 'a') + "\", ";
    text.erase(text.find(entry), entry.size());
    Result<Manifest> parsed = parseManifest(text, "manifest.json");
    QVERIFY(!parsed.isOk());
    QCOMPARE(QString::fromStdString(parsed.error().str()), QString("manifest.json: /files: no checksum for \"host.relay\""));
  }
};

QTEST_GUILESS_MAIN(TestExportFormat)
#include "test_export_format.moc"
