// SPDX-License-Identifier: MIT
#include "app/record/record_dialog.h"

#include "app/record/record_form_parsing.h"
#include "capture/launcher/program_lookup.h"
#include "capture/launcher/record_kinds.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTextCursor>
#include <QVBoxLayout>

#include <ctime>

namespace gapscope::app {

namespace {

struct KindChoice {
    capture::RecordKind kind;
    const char* help;
};

constexpr KindChoice kKindChoices[] = {
    { capture::RecordKernels, "GPU kernels (CUPTI CONCURRENT_KERNEL)" },
    { capture::RecordMemcpy, "memory copies, peer to peer included" },
    { capture::RecordMemset, "memsets" },
    { capture::RecordSync, "synchronizations (stream, event, device)" },
    { capture::RecordRuntime, "CUDA runtime API calls" },
    { capture::RecordDriver, "CUDA driver API calls" },
    { capture::RecordNvtx, "NVTX ranges, marks and thread names" },
    { capture::RecordOverhead, "CUPTI's own overhead records" },
};

QString elapsedText(qint64 ms)
{
    return QStringLiteral("%1:%2.%3")
        .arg(ms / 60'000)
        .arg((ms / 1000) % 60, 2, 10, QLatin1Char('0'))
        .arg((ms / 10) % 100, 2, 10, QLatin1Char('0'));
}

} // namespace

RecordDialog::RecordDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Record a Program"));
    setModal(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createForm());
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #b00000"));
    m_message->hide();
    layout->addWidget(m_message);
    layout->addWidget(createLivePanel(), 1);

    auto* buttons = new QDialogButtonBox(this);
    m_recordButton = buttons->addButton(tr("&Record"), QDialogButtonBox::ActionRole);
    m_recordButton->setDefault(true);
    m_stopButton = buttons->addButton(tr("&Stop"), QDialogButtonBox::ActionRole);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    connect(m_recordButton, &QPushButton::clicked, this, &RecordDialog::startRecording);
    connect(m_stopButton, &QPushButton::clicked, this, &RecordDialog::stopRecording);
    connect(close, &QPushButton::clicked, this, &RecordDialog::close);
    layout->addWidget(buttons);

    m_ticker.setInterval(100);
    connect(&m_ticker, &QTimer::timeout, this, &RecordDialog::tickElapsed);
    setRunningUi(false);
    resize(780, 720);
}

RecordDialog::~RecordDialog() = default;

QWidget* RecordDialog::createForm()
{
    m_form = new QWidget(this);
    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    // A row given as a layout gets no buddy from QFormLayout: name the field so that Alt+letter works.
    const auto buddyLabel = [this](const QString& text, QWidget* field) {
        auto* label = new QLabel(text, m_form);
        label->setBuddy(field);
        return label;
    };
    const auto withButton = [this](QLineEdit* field, const QString& label, void (RecordDialog::*browse)()) {
        auto* row = new QHBoxLayout;
        row->addWidget(field, 1);
        auto* button = new QPushButton(label, m_form);
        connect(button, &QPushButton::clicked, this, browse);
        row->addWidget(button);
        return row;
    };
    m_program = new QLineEdit(m_form);
    m_program->setPlaceholderText(tr("a path, or a name looked up in PATH"));
    form->addRow(
        buddyLabel(tr("&Program:"), m_program), withButton(m_program, tr("Browse..."), &RecordDialog::browseProgram));
    m_arguments = new QLineEdit(m_form);
    m_arguments->setPlaceholderText(tr("as in a shell: --steps 10 \"a b\" 'c d'"));
    form->addRow(tr("&Arguments:"), m_arguments);
    m_workingDirectory = new QLineEdit(m_form);
    m_workingDirectory->setPlaceholderText(tr("the viewer's: %1").arg(QDir::currentPath()));
    form->addRow(buddyLabel(tr("&Working folder:"), m_workingDirectory),
        withButton(m_workingDirectory, tr("Browse..."), &RecordDialog::browseWorkingDirectory));
    m_environment = new QPlainTextEdit(m_form);
    m_environment->setPlaceholderText(
        tr("Changes to your environment, one a line: NAME=value sets, -NAME unsets, # comments"));
    m_environment->setTabChangesFocus(true);
    m_environment->setFixedHeight(m_environment->fontMetrics().lineSpacing() * 4 + 12);
    form->addRow(tr("&Environment:"), m_environment);

    auto* kinds = new QGridLayout;
    int column = 0;
    for (const KindChoice& choice : kKindChoices) {
        auto* box = new QCheckBox(QString::fromStdString(capture::recordKindsText(choice.kind)), m_form);
        box->setToolTip(tr(choice.help));
        box->setChecked(true); // as `gapscope record`: everything
        m_kinds[choice.kind] = box;
        kinds->addWidget(box, column / 4, column % 4);
        ++column;
    }
    form->addRow(tr("Record:"), kinds);

    m_delay = new QDoubleSpinBox(m_form);
    m_delay->setRange(0, 24 * 3600);
    m_delay->setDecimals(1);
    m_delay->setSuffix(tr(" s"));
    m_delay->setSpecialValueText(tr("none: from the start"));
    m_duration = new QDoubleSpinBox(m_form);
    m_duration->setRange(0, 24 * 3600);
    m_duration->setDecimals(1);
    m_duration->setSuffix(tr(" s"));
    m_duration->setSpecialValueText(tr("until the program ends"));
    m_duration->setToolTip(tr("Then the program is stopped with SIGINT."));
    auto* timing = new QHBoxLayout;
    timing->addWidget(new QLabel(tr("Delay:"), m_form));
    timing->addWidget(m_delay, 1);
    timing->addSpacing(12);
    timing->addWidget(new QLabel(tr("Duration:"), m_form));
    timing->addWidget(m_duration, 1);
    form->addRow(tr("Timing:"), timing);

    m_runs = new QSpinBox(m_form);
    m_runs->setRange(1, 1000);
    m_runs->setSuffix(tr(" run(s)"));
    m_runs->setToolTip(tr("Record the program this many times, one after the other, into one folder: a trace per "
                          "run and the manifest gapscope-runs.json. Compare two such folders with "
                          "`gapscope diff BASE_DIR NEW_DIR`: run-to-run noise, not the steps of one run, decides "
                          "the verdict."));
    form->addRow(buddyLabel(tr("R&uns:"), m_runs), m_runs);

    m_output = new QLineEdit(m_form);
    m_outputLabel = buddyLabel(tr("&Output file:"), m_output);
    form->addRow(m_outputLabel, withButton(m_output, tr("Browse..."), &RecordDialog::browseOutput));
    connect(m_workingDirectory, &QLineEdit::textChanged, this, &RecordDialog::updateOutputPlaceholder);
    connect(m_runs, &QSpinBox::valueChanged, this, &RecordDialog::updateOutputPlaceholder);
    updateOutputPlaceholder();
    return m_form;
}

QWidget* RecordDialog::createLivePanel()
{
    auto* panel = new QGroupBox(tr("Recording"), this);
    auto* layout = new QVBoxLayout(panel);
    m_status = new QLabel(tr("Not started."), panel);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto* figures = new QGridLayout;
    const auto figure = [&](int column, const QString& name) {
        figures->addWidget(new QLabel(name, panel), 0, column * 2);
        auto* value = new QLabel(QStringLiteral("-"), panel);
        value->setMinimumWidth(90);
        QFont bold = value->font();
        bold.setBold(true);
        value->setFont(bold);
        figures->addWidget(value, 0, column * 2 + 1);
        return value;
    };
    m_elapsed = figure(0, tr("Elapsed:"));
    m_records = figure(1, tr("Records:"));
    m_dropped = figure(2, tr("Dropped:"));
    m_processes = figure(3, tr("Processes:"));
    figures->setColumnStretch(8, 1);
    layout->addLayout(figures);

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto* splitter = new QSplitter(Qt::Vertical, panel);
    splitter->setChildrenCollapsible(false);
    m_outputView = new QPlainTextEdit(splitter);
    m_outputView->setReadOnly(true);
    m_outputView->setFont(fixed);
    m_outputView->setMaximumBlockCount(kOutputLines);
    m_outputView->setPlaceholderText(tr("The program's output (stdout; stderr in red)"));
    m_outputView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_summaryView = new QPlainTextEdit(splitter);
    m_summaryView->setReadOnly(true);
    m_summaryView->setFont(fixed);
    m_summaryView->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_summaryView->hide();
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    return panel;
}

QString RecordDialog::defaultOutputFolder(const QString& workingDirectory)
{
    const QString folder = workingDirectory.isEmpty() ? QDir::currentPath() : workingDirectory;
    const QFileInfo info(folder);
    if (info.isDir() && info.isWritable())
        return QDir::cleanPath(info.absoluteFilePath());
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recordings");
}

void RecordDialog::updateOutputPlaceholder()
{
    const QString folder = defaultOutputFolder(m_workingDirectory->text().trimmed());
    const bool series = m_runs->value() > 1;
    m_outputLabel->setText(series ? tr("&Output folder:") : tr("&Output file:"));
    m_output->setPlaceholderText(series ? tr("default: %1/gapscope-DATE-TIME-runs/run-K.gapscope").arg(folder)
                                        : tr("default: %1/gapscope-DATE-TIME.gapscope").arg(folder));
}

std::optional<RecordRequest> RecordDialog::requestFromForm(QString& error) const
{
    RecordRequest request;
    capture::RecordOptions& options = request.options;
    const auto splitArgs = splitArguments(m_arguments->text().toStdString());
    if (!splitArgs) {
        error = tr("Arguments: %1").arg(QString::fromStdString(splitArgs.error().message));
        return std::nullopt;
    }
    const auto environment = parseEnvironmentChanges(m_environment->toPlainText().toStdString());
    if (!environment) {
        error = tr("Environment: %1").arg(QString::fromStdString(environment.error().message));
        return std::nullopt;
    }
    const QString workingDirectory = m_workingDirectory->text().trimmed();
    if (!workingDirectory.isEmpty() && !QFileInfo(workingDirectory).isDir()) {
        error = tr("The working folder %1 does not exist.").arg(workingDirectory);
        return std::nullopt;
    }
    options.kinds = 0;
    for (const auto& [kind, box] : m_kinds) {
        if (box->isChecked())
            options.kinds |= kind;
    }
    if (options.kinds == 0) {
        error = tr("Choose at least one kind of record.");
        return std::nullopt;
    }
    // The program is looked up as the child will: in its working folder and its PATH.
    std::string path = qEnvironmentVariable("PATH").toStdString();
    for (const auto& [name, value] : *environment) {
        if (name == "PATH")
            path = value.value_or(std::string());
    }
    options.program = m_program->text().trimmed().toStdString();
    std::string message;
    if (!capture::findProgram(options.program, workingDirectory.toStdString(), path, message)) {
        error = tr("Cannot record: %1").arg(QString::fromStdString(message));
        return std::nullopt;
    }
    options.arguments = *splitArgs;
    options.workingDirectory = workingDirectory.toStdString();
    options.environment.assign(environment->begin(), environment->end());
    options.delaySeconds = m_delay->value();
    if (m_duration->value() > 0)
        options.durationSeconds = m_duration->value();

    request.runs = m_runs->value();
    QString output = m_output->text().trimmed();
    if (output.isEmpty()) {
        QString name = QString::fromStdString(defaultRecordingName(std::time(nullptr)));
        if (request.runs > 1)
            name = QFileInfo(name).completeBaseName() + QStringLiteral("-runs");
        output = defaultOutputFolder(workingDirectory) + QLatin1Char('/') + name;
    }
    // A relative name is the program's folder's, where its other output lands.
    const QDir base(workingDirectory.isEmpty() ? QDir::currentPath() : workingDirectory);
    request.outputFile = QDir::cleanPath(base.absoluteFilePath(output));
    if (request.runs > 1) {
        // A folder of earlier runs is never mixed with these: its manifest would name runs of another setting.
        const QDir existing(request.outputFile);
        if (existing.exists() && !existing.isEmpty())
            request.outputFile = QString::fromStdString(freshRecordingPath(request.outputFile.toStdString()));
        if (QFileInfo(request.outputFile).isFile()) {
            error
                = tr("The output %1 is a file; with %2 runs, name a folder.").arg(request.outputFile).arg(request.runs);
            return std::nullopt;
        }
        return request;
    }
    if (QFileInfo(request.outputFile).isDir()) {
        error = tr("The output %1 is a folder; name a file.").arg(request.outputFile);
        return std::nullopt;
    }
    request.outputFile = QString::fromStdString(freshRecordingPath(request.outputFile.toStdString()));
    return request;
}

bool RecordDialog::startRecording()
{
    if (isRecording())
        return false;
    QString error;
    std::optional<RecordRequest> request = requestFromForm(error);
    if (!request) {
        showMessage(error);
        return false;
    }
    const QString folder = request->runs > 1 ? request->outputFile : QFileInfo(request->outputFile).absolutePath();
    if (!QDir().mkpath(folder)) {
        showMessage(tr("Cannot create the folder %1 for the recording.").arg(folder));
        return false;
    }
    m_series.reset();
    m_summaryView->clear();
    m_summaryView->hide();
    if (request->runs > 1) {
        m_series = std::make_unique<RecordSeries>(request->options, folder, request->runs);
        m_seriesOptions = request->options;
        const QString file = m_series->beginNextRun();
        if (auto startError = startSession(m_seriesOptions, file)) {
            // The first run cannot start: nor could any other. Nothing was written but the folder.
            m_series.reset();
            showMessage(tr("Cannot record: %1").arg(*startError));
            return false;
        }
        return true;
    }
    if (auto startError = startSession(std::move(request->options), request->outputFile)) {
        showMessage(tr("Cannot record: %1").arg(*startError));
        return false;
    }
    return true;
}

std::optional<QString> RecordDialog::startSession(capture::RecordOptions options, const QString& file)
{
    auto* session = new RecordSession(std::move(options), file, this);
    if (auto startError = session->start()) {
        delete session;
        return startError;
    }
    if (m_session)
        m_session->deleteLater();
    m_session = session;
    connect(session, &RecordSession::progressed, this, &RecordDialog::onProgress);
    connect(session, &RecordSession::outputReceived, this, &RecordDialog::onOutput);
    connect(session, &RecordSession::noted, this,
        [this](const QString& note) { onOutput(false, tr("[gapscope] %1\n").arg(note)); });
    connect(session, &RecordSession::finished, this, &RecordDialog::onFinished);

    showMessage({});
    if (!m_series || m_series->current() == 1)
        m_outputView->clear(); // the runs of a series write into one view, one after the other
    m_outputView->setPlaceholderText(tr("The program's output (stdout; stderr in red)"));
    m_records->setText(QStringLiteral("0"));
    m_dropped->setText(QStringLiteral("0"));
    m_dropped->setStyleSheet({});
    m_processes->setText(QStringLiteral("0"));
    const QString recording = tr("Recording %1 (pid %2) into %3")
                                  .arg(m_program->text().trimmed())
                                  .arg(session->pid())
                                  .arg(QDir::toNativeSeparators(session->outputFile()));
    m_status->setText(
        m_series ? tr("Run %1 of %2: %3").arg(m_series->current()).arg(m_series->runs()).arg(recording) : recording);
    m_clock.start();
    m_ticker.start();
    tickElapsed();
    setRunningUi(true);
    return std::nullopt;
}

void RecordDialog::stopRecording()
{
    if (!isRecording())
        return;
    m_session->requestStop();
    if (m_series)
        m_series->stop(); // the run under way is the last, as Ctrl-C ends `gapscope record --runs`
    static const char* const kSent[] = { "SIGINT", "SIGTERM", "SIGKILL" };
    const int sent = std::min(m_session->stopRequests(), 3) - 1;
    m_status->setText(tr("Stopping the program: %1 sent to its process group.").arg(QLatin1String(kSent[sent])));
    updateStopButton();
}

void RecordDialog::updateStopButton()
{
    const int requests = isRecording() ? m_session->stopRequests() : 0;
    // Each press escalates: the label says what the next one sends.
    if (requests == 0) {
        m_stopButton->setText(tr("&Stop"));
        m_stopButton->setToolTip(tr("Send SIGINT to the program, as Ctrl-C would"));
    } else if (requests == 1) {
        m_stopButton->setText(tr("&Terminate"));
        m_stopButton->setToolTip(tr("Send SIGTERM to the program"));
    } else {
        m_stopButton->setText(tr("&Kill"));
        m_stopButton->setToolTip(tr("Send SIGKILL to the program"));
    }
}

void RecordDialog::setRunningUi(bool running)
{
    m_form->setEnabled(!running);
    m_recordButton->setEnabled(!running);
    m_recordButton->setText(m_session && !running ? tr("&Record Again") : tr("&Record"));
    m_stopButton->setEnabled(running);
    updateStopButton();
}

void RecordDialog::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void RecordDialog::tickElapsed()
{
    if (m_clock.isValid())
        m_elapsed->setText(elapsedText(m_clock.elapsed()));
}

void RecordDialog::onProgress(const capture::RecordProgress& progress)
{
    const QLocale locale;
    m_records->setText(locale.toString(static_cast<qulonglong>(progress.records)));
    m_dropped->setText(locale.toString(static_cast<qulonglong>(progress.droppedRecords)));
    m_dropped->setStyleSheet(progress.droppedRecords > 0 ? QStringLiteral("color: #b00000") : QString());
    m_processes->setText(locale.toString(static_cast<qulonglong>(progress.processes)));
}

void RecordDialog::onOutput(bool isStderr, const QString& text)
{
    QScrollBar* bar = m_outputView->verticalScrollBar();
    const bool following = bar->value() == bar->maximum();
    QTextCursor cursor(m_outputView->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    if (isStderr)
        format.setForeground(QColor(0xb0, 0x00, 0x00));
    cursor.insertText(text, format);
    if (following) { // keep showing the newest output, unless the user scrolled up to read
        m_outputView->moveCursor(QTextCursor::End);
        m_outputView->ensureCursorVisible();
    }
}

void RecordDialog::onFinished(const std::shared_ptr<const RecordingOutcome>& outcome)
{
    m_ticker.stop();
    tickElapsed();
    const QScrollBar* bar = m_outputView->verticalScrollBar();
    if (bar->value() == bar->maximum()) {
        // The message or the summary shrinks the output view: keep its last line in sight once the
        // layout has settled.
        QTimer::singleShot(0, this, [this] {
            m_outputView->moveCursor(QTextCursor::End);
            m_outputView->ensureCursorVisible();
        });
    }
    if (outcome->wallSeconds > 0) // the launcher's clock, from the start to the end of the group
        m_elapsed->setText(elapsedText(static_cast<qint64>(outcome->wallSeconds * 1000.0)));
    if (m_series) {
        onSeriesRunFinished(*outcome);
        return;
    }
    setRunningUi(false);
    if (m_outputView->document()->isEmpty())
        m_outputView->setPlaceholderText(tr("The program wrote nothing."));
    if (m_stopQuestion)
        m_stopQuestion->hide();
    if (outcome->succeeded) {
        QString summary = outcome->summaryText;
        summary += tr("Wrote %1 (%n event(s)); it opens in the viewer.", nullptr, static_cast<int>(outcome->events))
                       .arg(QDir::toNativeSeparators(outcome->outputFile));
        showSummary(summary);
        m_status->setText(tr("The program %1. The recording opens in the viewer.")
                              .arg(QString::fromStdString(outcome->exit.describe())));
        emit recordingFinished(outcome->outputFile);
    } else {
        showMessage(tr("The recording failed: %1. Nothing was opened.").arg(outcome->error));
        m_status->setText(tr("The recording failed."));
        emit recordingFailed(outcome->error);
    }
}

void RecordDialog::showSummary(const QString& text)
{
    m_summaryView->setPlainText(text);
    m_summaryView->show();
    if (auto* splitter = qobject_cast<QSplitter*>(m_summaryView->parentWidget())) {
        const int height = splitter->height();
        splitter->setSizes({ height / 2, height - height / 2 });
    }
}

void RecordDialog::onSeriesRunFinished(const RecordingOutcome& outcome)
{
    const QString ended = outcome.succeeded ? tr("%1, %2 s, %n event(s)", nullptr, static_cast<int>(outcome.events))
                                                  .arg(QString::fromStdString(outcome.exit.describe()))
                                                  .arg(outcome.wallSeconds, 0, 'f', 2)
                                            : tr("failed: %1").arg(outcome.error);
    m_summaryView->appendPlainText(tr("Run %1 of %2: %3").arg(m_series->current()).arg(m_series->runs()).arg(ended));
    m_summaryView->show();
    if (auto problem = m_series->endRun(outcome, m_session->environment())) {
        showMessage(tr("The runs manifest could not be written: %1. No further run starts.").arg(*problem));
        m_series->stop();
    }
    startNextSeriesRun();
}

void RecordDialog::startNextSeriesRun()
{
    while (m_series->hasMoreRuns()) {
        const QString file = m_series->beginNextRun();
        const auto startError = startSession(m_seriesOptions, file);
        if (!startError)
            return;
        m_summaryView->appendPlainText(
            tr("Run %1 of %2 could not start: %3").arg(m_series->current()).arg(m_series->runs()).arg(*startError));
        if (auto problem = m_series->endRunNotStarted(*startError)) {
            showMessage(tr("The runs manifest could not be written: %1. No further run starts.").arg(*problem));
            m_series->stop();
        }
    }
    finishSeries();
}

void RecordDialog::finishSeries()
{
    setRunningUi(false);
    if (m_stopQuestion)
        m_stopQuestion->hide();
    const QString last = m_series->lastGoodRun();
    QString summary = m_summaryView->toPlainText() + QLatin1Char('\n') + m_series->summaryLine();
    if (last.isEmpty()) {
        showSummary(summary);
        m_status->setText(tr("Every run failed: nothing was opened."));
        emit recordingFailed(m_series->summaryLine());
        return;
    }
    summary
        += QLatin1Char('\n') + tr("The last good run, %1, opens in the viewer.").arg(QDir::toNativeSeparators(last));
    showSummary(summary);
    m_status->setText(tr("Recorded %1 of %2 runs into %3. The last good run opens in the viewer.")
                          .arg(m_series->manifest().runs.size())
                          .arg(m_series->runs())
                          .arg(QDir::toNativeSeparators(m_series->folder())));
    emit recordingFinished(last);
}

void RecordDialog::askToStop()
{
    if (!m_stopQuestion) {
        m_stopQuestion = new QMessageBox(QMessageBox::Question, tr("Stop the recording?"),
            tr("The program is still running. Stop it? What was recorded so far opens when it ends."),
            QMessageBox::NoButton, this);
        QPushButton* stop = m_stopQuestion->addButton(tr("Stop and Close"), QMessageBox::AcceptRole);
        m_stopQuestion->addButton(tr("Keep Running"), QMessageBox::RejectRole);
        m_stopQuestion->setDefaultButton(stop);
        connect(m_stopQuestion, &QMessageBox::buttonClicked, this, [this, stop](QAbstractButton* button) {
            if (button != stop)
                return;
            stopRecording();
            hide();
        });
    }
    // Not exec(): the viewer keeps running (and painting) while the question is up.
    m_stopQuestion->open();
}

void RecordDialog::reject()
{
    if (isRecording())
        askToStop();
    else
        QDialog::reject();
}

void RecordDialog::closeEvent(QCloseEvent* event)
{
    if (isRecording()) {
        event->ignore();
        askToStop();
        return;
    }
    QDialog::closeEvent(event);
}

void RecordDialog::browseProgram()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Program to record"), m_workingDirectory->text());
    if (!file.isEmpty())
        m_program->setText(file);
}

void RecordDialog::browseWorkingDirectory()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Working folder"), m_workingDirectory->text());
    if (!folder.isEmpty())
        m_workingDirectory->setText(folder);
}

void RecordDialog::browseOutput()
{
    if (m_runs->value() > 1) {
        const QString folder = QFileDialog::getExistingDirectory(
            this, tr("Folder for the runs"), defaultOutputFolder(m_workingDirectory->text().trimmed()));
        if (!folder.isEmpty())
            m_output->setText(folder);
        return;
    }
    const QString file = QFileDialog::getSaveFileName(this, tr("Save the recording as"),
        defaultOutputFolder(m_workingDirectory->text().trimmed()), tr("GapScope recordings (*.gapscope)"));
    if (!file.isEmpty())
        m_output->setText(file);
}

} // namespace gapscope::app
