#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "runtime/npy.h"
#include "runtime_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

struct Outcome {
  int exitCode;
  QString out;
  QString err;
};

Outcome runCli(const QStringList& args) {
  QProcess process;
  process.start(QStringLiteral(BYOC_CLI_PATH), args);
  process.waitForFinished(120000);
  return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

QString data(const char* name) { return QString::fromStdString(testDataPath(QString("runtime/") + name)); }

/// Whether `--compare-reference` printed every output ok and ended with every offloaded call agreeing.
bool agreesThroughout(const QString& out) {
  static const QRegularExpression calls(QStringLiteral("\\n  0  max abs error [^\\n]*  ok\\n(?:  [0-9]+  max abs error [^\\n]*  ok\\n)*"
                                                       "each offloaded call on the inputs the run gave it [^\\n]*\\n  ([0-9]+) of \\1 agree\\n$"));
  return calls.match(out).hasMatch();
}

}  // namespace

/// `byoc run`: inputs from .npy or random, outputs written, bench, and precise errors.
class TestRunCommand : public QObject {
  Q_OBJECT

 private slots:
  void runsThePartitionedModelAndWritesItsOutput() {
    QTemporaryDir dir;
    const std::string weightPath = (dir.path() + "/w.npy").toStdString();
    QVERIFY(writeNpy(weightPath, randomTensor({4, 3, 3, 3}, 5)).isOk());
    const QString output = dir.path() + "/out.npy";
    Outcome run = runCli({"run", data("partitioned.relay"), "--input", "weight=" + QString::fromStdString(weightPath),
                        "--random-inputs", "3", "--output", output, "--bench", "2", "--threads", "2"});
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("  @tvmgen_default_dnnl_main_0  Compiler=dnnl  codegen=dnnl\n"));
    QVERIFY(run.out.contains("  0  Tensor[(1, 64), float32]  min 0  max "));
    QVERIFY(run.out.contains("bench: 2 runs after 1 warm-up, 2 thread(s)\n"));
    QVERIFY(run.out.contains("  @tvmgen_default_dnnl_main_0 (dnnl): "));
    Result<NDArray> written = readNpy(output.toStdString());
    QVERIFY(written.isOk());
    QCOMPARE(written->shape(), (Shape{1, 64}));
  }

  void bothFlowsRunConstantWeightsOnDnnl_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::newRow("relay") << QStringLiteral("relay");
    QTest::newRow("relax") << QStringLiteral("relax");
  }

  void bothFlowsRunConstantWeightsOnDnnl() {
    // Constant weights, a swish whose conv2d+add is read twice, a layer norm with a constant epsilon.
    QFETCH(QString, pipeline);
    Outcome run = runCli({"run", QString::fromStdString(testDataPath("partition/relax_constants.relay")), "--target", "dnnl",
                          "--pipeline", pipeline, "--random-inputs", "1", "--compare-reference"});
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("  Compiler=dnnl  codegen=dnnl\n"));
    QVERIFY2(agreesThroughout(run.out), qPrintable(run.out));
  }

  void comparesWithTheReference() {
    Outcome run = runCli({"run", data("partitioned.relay"), "--random-inputs", "4", "--compare-reference"});
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("compare with reference (reference kernels only):\n  0  max abs error "));
    QVERIFY2(agreesThroughout(run.out), qPrintable(run.out));
  }

  void offloadsADecomposedEncoderBlockAsOneRegion() {
    Outcome run = runCli({"run", data("encoder_block.relay"), "--target", "dnnl", "--random-inputs", "2", "--compare-reference"});
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.count("  Compiler=dnnl  codegen=dnnl\n"), 1);
    QVERIFY2(agreesThroughout(run.out), qPrintable(run.out));
  }

  // Checked call by call, the concatenate is a region of its own whose input is a tuple: the
  // oneDNN codegen takes the tuple's fields as its inputs.
  void aRegionTakesATupleAsItsFields() {
    Outcome run = runCli({"run", data("concatenate_region.relay"), "--target", "dnnl", "--random-inputs", "1", "--compare-reference"});
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(agreesThroughout(run.out), qPrintable(run.out));
  }

  void fusesConstantBatchNormsIntoScaleShift() {
    Outcome partition = runCli({"partition", data("batch_norm_block.relay"), "--target", "dnnl"});
    QCOMPARE(partition.err, QString());
    QCOMPARE(partition.exitCode, 0);
    QCOMPARE(partition.out.count("Composite=\"dnnl.scale_shift_relu\""), 1);
    QCOMPARE(partition.out.count("Composite=\"dnnl.scale_shift\""), 1);
    Outcome run = runCli({"run", data("batch_norm_block.relay"), "--target", "dnnl", "--random-inputs", "2", "--compare-reference"});
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(agreesThroughout(run.out), qPrintable(run.out));
  }

  /// A model with a dimension known only at run time runs at the shape --input-shape gives; with
  /// dnnl, only its static part is offloaded, and it agrees with the reference.
  void runsADynamicModelAtTheGivenShape() {
    for (const char* length : {"3", "17"}) {
      Outcome run = runCli({"run", data("dynamic_encoder_block.relay"), "--target", "dnnl", "--random-inputs", "1",
                            "--input-shape", QStringLiteral("x=%1x1x32").arg(length), "--compare-reference"});
      QCOMPARE(run.err, QString());
      QCOMPARE(run.exitCode, 0);
      QVERIFY(run.out.startsWith("regions:\n  @tvmgen_default_dnnl_main_0  Compiler=dnnl  codegen=dnnl\noutputs:\n"));
      QVERIFY2(run.out.contains(QStringLiteral("  0  Tensor[(%1, 1, 32), float32]  min ").arg(length)), qPrintable(run.out));
      QVERIFY(run.out.contains("  1  Tensor[(4, 64), float32]  min 0  max "));
      QVERIFY(run.out.contains("  0  max abs error 0  max rel error 0  ok\n"));
    }
  }

  void sameSeedSameOutput() {
    Outcome a = runCli({"run", "--demo", "--random-inputs", "7"});
    Outcome b = runCli({"run", "--demo", "--random-inputs", "7"});
    QCOMPARE(a.exitCode, 0);
    const QString line = a.out.section('\n', 2, 2);
    QVERIFY(line.startsWith("  0  Tensor[(1, 56, 56, 32), float32]  min 0  max "));
    QCOMPARE(b.out.section('\n', 2, 2), line);
  }

  void badInputs_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("missing input") << QStringList{"run", data("partitioned.relay")}
                                   << "error: missing input %data: expected Tensor[(1, 3, 8, 8), float32]\n"
                                      "note: give it with --input NAME=FILE.npy, or fill inputs with --random-inputs SEED\n";
    QTest::newRow("wrong shape") << QStringList{"run", data("partitioned.relay"), "--input", "data=SMALL", "--random-inputs", "1"}
                                 << "error: input %data: expected Tensor[(1, 3, 8, 8), float32], got Tensor[(2, 2), float32]\n";
    QTest::newRow("wrong dtype") << QStringList{"run", data("partitioned.relay"), "--input", "%bias=INT", "--random-inputs", "1"}
                                 << "error: input %bias: expected Tensor[(4, 1, 1), float32], got Tensor[(4, 1, 1), int32]\n";
    QTest::newRow("unknown input") << QStringList{"run", data("partitioned.relay"), "--input", "image=SMALL"}
                                   << "error: unknown input %image: the model's inputs are %data, %weight, %bias\n";
    QTest::newRow("bad npy") << QStringList{"run", data("partitioned.relay"), "--input", "data=" + data("partitioned.relay")}
                             << "error: " + data("partitioned.relay") +
                                    ": not a .npy file: expected the magic string \\x93NUMPY at the start\n";
    const QString dynamic = data("dynamic_encoder_block.relay");
    QTest::newRow("dynamic input without a shape")
        << QStringList{"run", dynamic, "--random-inputs", "1"}
        << "error: input %x has unknown dimensions (?, 1, 32); give its shape with --input-shape x=DIMS\n";
    QTest::newRow("input shape of another rank")
        << QStringList{"run", dynamic, "--random-inputs", "1", "--input-shape", "x=4x32"}
        << "error: --input-shape for input %x: shape (4, 32) has rank 2; expected (?, 1, 32)\n";
    QTest::newRow("input shape against a known size")
        << QStringList{"run", dynamic, "--random-inputs", "1", "--input-shape", "x=4x2x32"}
        << "error: --input-shape for input %x: shape (4, 2, 32) gives dimension 1 the size 2; expected (?, 1, 32)\n";
    QTest::newRow("input shape past the element limit")
        << QStringList{"run", dynamic, "--random-inputs", "1", "--input-shape", "x=4294967296x1x32"}
        << "error: --input-shape for input %x: shape (4294967296, 1, 32): more than 4294967296 elements (the limit of one tensor)\n";
    QTest::newRow("input shape of an unknown input")
        << QStringList{"run", dynamic, "--random-inputs", "1", "--input-shape", "y=4x1x32"}
        << "error: --input-shape y=4x1x32: the model has no input %y\n";
    QTest::newRow("input shape without random inputs")
        << QStringList{"run", dynamic, "--input-shape", "x=4x1x32"}
        << "error: --input-shape x=4x1x32: the shape of a random input; fill inputs with --random-inputs SEED\n";
    QTest::newRow("input shape of a given input")
        << QStringList{"run", dynamic, "--random-inputs", "1", "--input", "x=SMALL", "--input-shape", "x=4x1x32"}
        << "error: --input-shape x=4x1x32: input %x is given with --input\n";
    QTest::newRow("input shape twice")
        << QStringList{"run", dynamic, "--random-inputs", "1", "--input-shape", "x=4x1x32", "--input-shape", "%x=5x1x32"}
        << "error: --input-shape: input %x is given twice\n";
    QTest::newRow("unsupported op in dnnl region")
        << QStringList{"run", data("unsupported_in_region.relay"), "--random-inputs", "1"}
        << "error: " + data("unsupported_in_region.relay") + ":4:3: @tvmgen_default_dnnl_main_0 (dnnl): unsupported op erf\n";
  }
  void badInputs() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    QTemporaryDir dir;
    // Placeholders for .npy files written here.
    const QString small = dir.path() + "/small.npy";
    const QString ints = dir.path() + "/ints.npy";
    QVERIFY(writeNpy(small.toStdString(), NDArray::zeros(DType::Float32, {2, 2})).isOk());
    QVERIFY(writeNpy(ints.toStdString(), NDArray::zeros(DType::Int32, {4, 1, 1})).isOk());
    args.replaceInStrings("=SMALL", "=" + small);
    args.replaceInStrings("=INT", "=" + ints);
    Outcome run = runCli(args);
    QCOMPARE(run.err, error);
    QCOMPARE(run.exitCode, 1);
  }

  void usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("bench") << QStringList{"run", "--demo", "--bench", "x"} << "error: --bench expects an integer from 1 to 1000000, found 'x'\n";
    QTest::newRow("bench past the limit") << QStringList{"run", "--demo", "--bench", "1000001"}
                                          << "error: --bench expects an integer from 1 to 1000000, found '1000001'\n";
    QTest::newRow("threads") << QStringList{"run", "--demo", "--threads", "0"} << "error: --threads expects an integer from 1 to 1024, found '0'\n";
    QTest::newRow("threads past the limit") << QStringList{"run", "--demo", "--threads", "65536"}
                                            << "error: --threads expects an integer from 1 to 1024, found '65536'\n";
    QTest::newRow("threads overflowing") << QStringList{"run", "--demo", "--threads", "18446744073709551617"}
                                         << "error: --threads expects an integer from 1 to 1024, found '18446744073709551617'\n";
    QTest::newRow("threads signed") << QStringList{"run", "--demo", "--threads", "+2"}
                                    << "error: --threads expects an integer from 1 to 1024, found '+2'\n";
    QTest::newRow("seed") << QStringList{"run", "--demo", "--random-inputs", "-1"}
                          << "error: --random-inputs expects an integer from 0 to 999999999999999999, found '-1'\n";
    QTest::newRow("seed past the limit") << QStringList{"run", "--demo", "--random-inputs", "1000000000000000000"}
                                         << "error: --random-inputs expects an integer from 0 to 999999999999999999, found '1000000000000000000'\n";
    QTest::newRow("input") << QStringList{"run", "--demo", "--input", "data.npy"} << "error: --input expects NAME=FILE.npy, found 'data.npy'\n";
    const QString sizes = "error: --input-shape expects sizes from 0 to 4294967296 joined by 'x', at most 32 of them, found ";
    QTest::newRow("input shape without name") << QStringList{"run", "--demo", "--input-shape", "=1x2"}
                                              << "error: --input-shape expects NAME=DIMS such as input=1x16x256, found '=1x2'\n";
    QTest::newRow("input shape without sizes") << QStringList{"run", "--demo", "--input-shape", "x="} << sizes + "'' in 'x='\n";
    QTest::newRow("input shape empty size") << QStringList{"run", "--demo", "--input-shape", "x=1xx2"} << sizes + "'1xx2' in 'x=1xx2'\n";
    QTest::newRow("input shape negative") << QStringList{"run", "--demo", "--input-shape", "x=1x-1"} << sizes + "'1x-1' in 'x=1x-1'\n";
    QTest::newRow("input shape question mark") << QStringList{"run", "--demo", "--input-shape", "x=?x2"} << sizes + "'?x2' in 'x=?x2'\n";
    QTest::newRow("input shape size past the limit")
        << QStringList{"run", "--demo", "--input-shape", "x=4294967297"} << sizes + "'4294967297' in 'x=4294967297'\n";
    const QString rank33 = QStringLiteral("1x").repeated(32) + "1";
    QTest::newRow("input shape rank past the limit")
        << QStringList{"run", "--demo", "--input-shape", "x=" + rank33} << sizes + "'" + rank33 + "' in 'x=" + rank33 + "'\n";
    QTest::newRow("value") << QStringList{"run", "--demo", "--output"} << "error: option '--output' needs a value (FILE.npy)\n";
  }
  void usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    Outcome run = runCli(args);
    QCOMPARE(run.err, error + "Run 'byoc --help' for usage.\n");
    QCOMPARE(run.exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestRunCommand)
#include "test_run_command.moc"
