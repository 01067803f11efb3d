// SPDX-License-Identifier: MIT
#include "app/mainwindow/search_bar.h"

#include "app/timeline/timeline_view.h"

#include <QAction>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolButton>

namespace gapscope::app {

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent)
    , m_field(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    m_field->setPlaceholderText(tr("Find events by name (Ctrl+F)"));
    m_field->setClearButtonEnabled(true);
    // Wide enough for the whole placeholder (with the clear button and the frame), and not much wider, so that the
    // search stays on the toolbar of a 1000 px window instead of its overflow menu.
    const int placeholderWidth = m_field->fontMetrics().horizontalAdvance(m_field->placeholderText());
    m_field->setMinimumWidth(placeholderWidth + 2 * m_field->fontMetrics().height() + 12);
    m_field->setMaximumWidth(m_field->minimumWidth() + 80);
    auto* previous = new QToolButton(this);
    previous->setText(QStringLiteral("\u25c0"));
    previous->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setText(QStringLiteral("\u25b6"));
    next->setToolTip(tr("Next match (Enter, F3)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_field);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_status);
    connect(previous, &QToolButton::clicked, this, &SearchBar::previousRequested);
    connect(next, &QToolButton::clicked, this, &SearchBar::nextRequested);
    connect(m_field, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            emit previousRequested();
        else
            emit nextRequested();
    });
    connect(m_field, &QLineEdit::textChanged, this, [this] {
        m_status->clear();
        // Highlights follow the text as it is typed.
        updateSearch();
    });
    m_field->installEventFilter(this);
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress
        && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        emit leaveRequested();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString SearchBar::statusText() const
{
    return m_status->text();
}

void SearchBar::showPosition(EventRef hit)
{
    m_status->setText(QStringLiteral("%1/%2").arg(m_search->ordinal(*m_trace, hit)).arg(m_count));
}

void SearchBar::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_search.reset();
    m_searchText.clear();
    m_count = 0;
    m_status->clear();
    updateSearch();
}

void SearchBar::updateSearch()
{
    if (!m_trace || (m_search && m_searchText == m_field->text()))
        return;
    m_searchText = m_field->text();
    if (m_searchText.isEmpty()) {
        m_search.reset();
        m_count = 0;
        emit matchesChanged();
        return;
    }
    m_search = std::make_unique<models::EventSearch>(*m_trace, m_searchText.toStdString());
    m_count = m_search->count(*m_trace);
    m_status->setText(m_count == 0 ? tr("no match") : m_count == 1 ? tr("1 match") : tr("%1 matches").arg(m_count));
    emit matchesChanged();
}

void SearchBar::findNext(std::optional<EventRef> current, TimeNs visibleStart)
{
    updateSearch();
    if (!m_search)
        return;
    if (const auto hit = m_search->next(*m_trace, current, visibleStart)) {
        showPosition(*hit);
        emit found(*hit);
    }
}

void SearchBar::findPrevious(std::optional<EventRef> current, TimeNs visibleEnd)
{
    updateSearch();
    if (!m_search)
        return;
    if (const auto hit = m_search->previous(*m_trace, current, visibleEnd)) {
        showPosition(*hit);
        emit found(*hit);
    }
}

void installSearchBar(QMainWindow* window, SearchBar* bar, timeline::TimelineView* view)
{
    window->menuBar()->setCornerWidget(bar, Qt::TopRightCorner);
    auto* find = new QAction(SearchBar::tr("Find"), window);
    find->setShortcut(QKeySequence::Find);
    QObject::connect(find, &QAction::triggered, bar, [bar] {
        bar->field()->setFocus();
        bar->field()->selectAll();
    });
    window->addAction(find);
    timeline::TimelineState* state = view->state();
    const auto findNext = [bar, state] { bar->findNext(state->selectedEvent(), state->visibleRange().first); };
    const auto findPrevious = [bar, state] { bar->findPrevious(state->selectedEvent(), state->visibleRange().second); };
    auto* next = new QAction(window);
    next->setShortcut(QKeySequence::FindNext);
    QObject::connect(next, &QAction::triggered, bar, findNext);
    auto* previous = new QAction(window);
    previous->setShortcut(QKeySequence::FindPrevious);
    QObject::connect(previous, &QAction::triggered, bar, findPrevious);
    window->addActions({ next, previous });
    QObject::connect(bar, &SearchBar::nextRequested, bar, findNext);
    QObject::connect(bar, &SearchBar::previousRequested, bar, findPrevious);
    QObject::connect(bar, &SearchBar::leaveRequested, view, [view] { view->setFocus(Qt::ShortcutFocusReason); });
    QObject::connect(bar, &SearchBar::matchesChanged, view, [bar, view] {
        const std::vector<bool>* names = bar->matchingNames();
        view->setHighlightedNames(names ? *names : std::vector<bool> {});
    });
}

} // namespace gapscope::app
