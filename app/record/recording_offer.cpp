// SPDX-License-Identifier: MIT
#include "app/record/recording_offer.h"

#include "app/record/record_dialog.h"

#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QVariant>

namespace gapscope::app {

RecordingOffer::RecordingOffer(QMainWindow* window, std::function<bool()> traceShown)
    : QObject(window)
    , m_window(window)
    , m_traceShown(std::move(traceShown))
{ }

RecordDialog* RecordingOffer::showDialog()
{
    if (!m_dialog) {
        m_dialog = new RecordDialog(m_window);
        connect(m_dialog, &RecordDialog::recordingFinished, this, &RecordingOffer::offer);
    }
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
    return m_dialog;
}

void RecordingOffer::offer(const QString& file)
{
    if (!m_traceShown()) {
        emit openRequested({ file });
        return;
    }
    // A trace is open (and perhaps notes on it): the recording replaces it only if the user says so.
    if (!m_prompt) {
        m_prompt
            = new QMessageBox(QMessageBox::Question, tr("Open the recording"), {}, QMessageBox::NoButton, m_window);
        m_prompt->setModal(false);
        m_replace = m_prompt->addButton(tr("Replace"), QMessageBox::AcceptRole);
        m_sideBySide = m_prompt->addButton(tr("Open Side by Side"), QMessageBox::ActionRole);
        m_prompt->addButton(tr("Keep the Current Trace"), QMessageBox::RejectRole);
        connect(m_prompt, &QMessageBox::buttonClicked, this, [this](QAbstractButton* button) {
            const QString recorded = m_prompt->property("recording").toString();
            if (button == m_replace)
                emit openRequested({ recorded });
            else if (button == m_sideBySide)
                emit addRequested({ recorded });
            else
                m_window->statusBar()->showMessage(tr("The recording is in %1 (File › Open)").arg(recorded), 15000);
        });
    }
    m_prompt->setProperty("recording", file);
    m_prompt->setText(tr("The recording is done: %1").arg(QFileInfo(file).fileName()));
    m_prompt->setInformativeText(tr("Replace the trace shown now, open the recording beside it, or keep the "
                                    "current trace?"));
    m_prompt->show();
}

} // namespace gapscope::app
