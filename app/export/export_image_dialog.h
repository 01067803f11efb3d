// SPDX-License-Identifier: MIT
#pragma once

// File › Export image…: what to draw (the view, the selected range or the analysis window), the size in
// pixels and the file (PNG or PDF by its name).

#include <QDialog>
#include <QSize>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

namespace gapscope::picture {

enum class PictureRange { View, Selection, AnalysisWindow };

struct ExportImageChoice {
    PictureRange range = PictureRange::View;
    QSize size;
    QString path;
};

class ExportImageDialog : public QDialog {
    Q_OBJECT
public:
    /// `size` is the default (the view's size); `hasSelection` enables "the selected range";
    /// `suggestedPath` is the file offered first.
    ExportImageDialog(QSize size, bool hasSelection, const QString& suggestedPath, QWidget* parent = nullptr);

    ExportImageChoice choice() const;
    void setChoice(const ExportImageChoice& choice);

private:
    void browse();
    void updateOk();

    QComboBox* m_range;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QLineEdit* m_path;
    QDialogButtonBox* m_buttons;
};

} // namespace gapscope::picture
