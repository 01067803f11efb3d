// SPDX-License-Identifier: MIT
#include "app/export/export_image_dialog.h"

#include "app/export/annotated_picture.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

namespace gapscope::picture {

namespace {

// The same limit as `gapscope export --size`.
constexpr int kMaxSide = 16384;

} // namespace

ExportImageDialog::ExportImageDialog(QSize size, bool hasSelection, const QString& suggestedPath, QWidget* parent)
    : QDialog(parent)
    , m_range(new QComboBox(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_path(new QLineEdit(suggestedPath, this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Export Image"));
    m_range->addItem(tr("The current view"), static_cast<int>(PictureRange::View));
    m_range->addItem(tr("The selected range"), static_cast<int>(PictureRange::Selection));
    m_range->addItem(tr("The analysis window"), static_cast<int>(PictureRange::AnalysisWindow));
    if (!hasSelection) {
        // Greyed out rather than hidden, so that the user learns the choice exists.
        if (auto* model = qobject_cast<QStandardItemModel*>(m_range->model()))
            model->item(1)->setEnabled(false);
    }
    for (QSpinBox* box : { m_width, m_height }) {
        box->setRange(200, kMaxSide);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(std::max(200, size.width()));
    m_height->setValue(std::max(200, size.height()));

    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("\u00d7"), this));
    sizeRow->addWidget(m_height);
    sizeRow->addStretch();
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    auto* browse = new QPushButton(tr("Browse..."), this);
    fileRow->addWidget(browse);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Show:"), m_range);
    form->addRow(tr("Size:"), sizeRow);
    form->addRow(tr("File:"), fileRow);
    form->addRow(new QLabel(tr("A name ending in .pdf writes a PDF page; otherwise PNG."), this));
    form->addRow(m_buttons);

    connect(browse, &QPushButton::clicked, this, &ExportImageDialog::browse);
    connect(m_path, &QLineEdit::textChanged, this, &ExportImageDialog::updateOk);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

ExportImageChoice ExportImageDialog::choice() const
{
    ExportImageChoice choice;
    choice.range = static_cast<PictureRange>(m_range->currentData().toInt());
    choice.size = QSize(m_width->value(), m_height->value());
    choice.path = m_path->text().trimmed();
    // No known extension: PNG, said in the name so that the file opens with the right program.
    if (!choice.path.isEmpty() && !pictureFormatFor(choice.path.toStdString()))
        choice.path += QStringLiteral(".png");
    return choice;
}

void ExportImageDialog::setChoice(const ExportImageChoice& choice)
{
    m_range->setCurrentIndex(m_range->findData(static_cast<int>(choice.range)));
    m_width->setValue(choice.size.width());
    m_height->setValue(choice.size.height());
    m_path->setText(choice.path);
}

void ExportImageDialog::browse()
{
    QString selectedFilter;
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export Image"), m_path->text(), tr("PNG image (*.png);;PDF document (*.pdf)"), &selectedFilter);
    if (!file.isEmpty())
        m_path->setText(file);
}

void ExportImageDialog::updateOk()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_path->text().trimmed().isEmpty());
}

} // namespace gapscope::picture
