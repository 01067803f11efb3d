// SPDX-License-Identifier: MIT
// File › Record…: the form turned into the launcher's options, and checked before anything starts.

#include "app/record/record_dialog.h"
#include "tests/temp_dir.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include <sys/stat.h>

using namespace gapscope;
using app::RecordDialog;

namespace {

TEST(RecordDialogTest, FormBecomesTheLauncherOptions)
{
    test::TempDir dir;
    RecordDialog dialog;
    dialog.programField()->setText(QStringLiteral("sh"));
    dialog.argumentsField()->setText(QStringLiteral(R"(-c 'echo "$A"' "two words")"));
    dialog.workingDirectoryField()->setText(QString::fromStdString(dir.path().string()));
    dialog.environmentField()->setPlainText(QStringLiteral("A=1 2\n-HOME\n"));
    dialog.kindBox(capture::RecordMemcpy)->setChecked(false);
    dialog.kindBox(capture::RecordOverhead)->setChecked(false);
    dialog.delayField()->setValue(1.5);
    dialog.outputField()->setText(QStringLiteral("runs/out.gapscope"));

    QString error;
    auto request = dialog.requestFromForm(error);
    ASSERT_TRUE(request) << error.toStdString();
    const capture::RecordOptions& o = request->options;
    EXPECT_EQ(o.program, "sh");
    EXPECT_EQ(o.arguments, (std::vector<std::string> { "-c", "echo \"$A\"", "two words" }));
    EXPECT_EQ(o.workingDirectory, dir.path().string());
    using Change = std::pair<std::string, std::optional<std::string>>;
    EXPECT_EQ(o.environment, (std::vector<Change> { { "A", "1 2" }, { "HOME", std::nullopt } }));
    EXPECT_EQ(o.kinds, capture::kAllRecordKinds & ~(capture::RecordMemcpy | capture::RecordOverhead));
    EXPECT_EQ(o.delaySeconds, 1.5);
    EXPECT_EQ(o.durationSeconds, std::nullopt); // 0 shows "until the program ends"
    // A relative output is the working folder's.
    EXPECT_EQ(request->outputFile, QString::fromStdString(dir.file("runs/out.gapscope")));

    dialog.durationField()->setValue(2.0);
    dialog.outputField()->clear();
    request = dialog.requestFromForm(error);
    ASSERT_TRUE(request) << error.toStdString();
    EXPECT_EQ(request->options.durationSeconds, 2.0);
    // Left empty: named as `gapscope record` names it, in the (writable) working folder.
    const QFileInfo output(request->outputFile);
    EXPECT_EQ(output.absolutePath(), QString::fromStdString(dir.path().string()));
    EXPECT_TRUE(
        QRegularExpression(QStringLiteral("^gapscope-\\d{8}-\\d{6}\\.gapscope$")).match(output.fileName()).hasMatch())
        << output.fileName().toStdString();

    // A working folder that does not exist cannot take the recording: the recordings folder does.
    EXPECT_EQ(RecordDialog::defaultOutputFolder(QStringLiteral("/nonexistent/gapscope-folder")),
        QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recordings"));
}

struct FormErrorCase {
    const char* name;
    std::function<void(RecordDialog&, const test::TempDir&)> fill;
    std::string message;
};

class RecordDialogFormErrorTest : public ::testing::TestWithParam<FormErrorCase> { };

TEST_P(RecordDialogFormErrorTest, ShowsTheMessageAndStartsNothing)
{
    const FormErrorCase& c = GetParam();
    test::TempDir dir;
    RecordDialog dialog;
    dialog.show();
    dialog.programField()->setText(QStringLiteral("/bin/sh"));
    dialog.outputField()->setText(QString::fromStdString(dir.file("out.gapscope")));
    c.fill(dialog, dir);
    QTest::mouseClick(dialog.recordButton(), Qt::LeftButton);
    EXPECT_EQ(dialog.messageLabel()->text().toStdString(), c.message);
    EXPECT_TRUE(dialog.messageLabel()->isVisible());
    EXPECT_EQ(dialog.session(), nullptr);
    EXPECT_FALSE(dialog.isRecording());
    EXPECT_TRUE(dialog.recordButton()->isEnabled());
    EXPECT_FALSE(dialog.stopButton()->isEnabled());
    EXPECT_EQ(dir.entries(), std::vector<std::string> {});
}

INSTANTIATE_TEST_SUITE_P(RecordFormErrors, RecordDialogFormErrorTest,
    ::testing::Values(FormErrorCase { "missingProgram",
                          [](RecordDialog& d, const test::TempDir&) {
                              d.programField()->setText(QStringLiteral("/nonexistent/gapscope-no-such-program"));
                          },
                          "Cannot record: /nonexistent/gapscope-no-such-program: no such file" },
        FormErrorCase { "notInPath",
            [](RecordDialog& d, const test::TempDir&) {
                d.programField()->setText(QStringLiteral("gapscope-no-such-program"));
            },
            "Cannot record: gapscope-no-such-program: command not found (searched PATH)" },
        // The program is looked up in the PATH the environment box gives the program.
        FormErrorCase { "pathFromEnvironment",
            [](RecordDialog& d, const test::TempDir&) {
                d.programField()->setText(QStringLiteral("sh"));
                d.environmentField()->setPlainText(QStringLiteral("PATH=/nonexistent"));
            },
            "Cannot record: sh: command not found (searched PATH)" },
        FormErrorCase { "badArguments",
            [](RecordDialog& d, const test::TempDir&) { d.argumentsField()->setText(QStringLiteral("-c 'x")); },
            "Arguments: a single quote is not closed (at character 4)" },
        FormErrorCase { "badEnvironment",
            [](RecordDialog& d, const test::TempDir&) { d.environmentField()->setPlainText(QStringLiteral("X")); },
            "Environment: environment line 1 (X): write NAME=value to set a variable, or -NAME to unset it" },
        FormErrorCase { "noKinds",
            [](RecordDialog& d, const test::TempDir&) {
                for (const auto kind :
                    { capture::RecordKernels, capture::RecordMemcpy, capture::RecordMemset, capture::RecordSync,
                        capture::RecordRuntime, capture::RecordDriver, capture::RecordNvtx, capture::RecordOverhead })
                    d.kindBox(kind)->setChecked(false);
            },
            "Choose at least one kind of record." },
        FormErrorCase { "missingFolder",
            [](RecordDialog& d, const test::TempDir&) {
                d.workingDirectoryField()->setText(QStringLiteral("/nonexistent/gapscope-folder"));
            },
            "The working folder /nonexistent/gapscope-folder does not exist." }),
    [](const ::testing::TestParamInfo<FormErrorCase>& info) { return std::string(info.param.name); });

TEST(RecordDialogTest, NotExecutableProgramIsNamedInTheMessage)
{
    test::TempDir dir;
    const std::string script = dir.file("script.sh");
    test::writeWholeFile(script, "echo hi\n");
    ::chmod(script.c_str(), 0644);
    RecordDialog dialog;
    dialog.programField()->setText(QString::fromStdString(script));
    EXPECT_FALSE(dialog.startRecording());
    EXPECT_EQ(dialog.messageLabel()->text().toStdString(),
        "Cannot record: " + script + ": is not executable (permission denied; chmod +x?)");
    EXPECT_EQ(dialog.session(), nullptr);
}

} // namespace
