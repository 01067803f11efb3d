// SPDX-License-Identifier: MIT
#include "core/experiment/metric_prediction.h"

#include "core/analysis/compare_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace gapscope {

namespace {

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

bool isWordCharacter(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The position just after `word` found as a whole word in `text` from `from`, or npos.
std::size_t findWord(const std::string& text, const std::string& word, std::size_t from = 0)
{
    for (std::size_t at = text.find(word, from); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool startOk = at == 0 || !isWordCharacter(text[at - 1]);
        const std::size_t end = at + word.size();
        if (startOk && (end == text.size() || !isWordCharacter(text[end])))
            return end;
    }
    return std::string::npos;
}

constexpr std::array kFalls
    = { "falls", "fall", "drops", "drop", "decreases", "decrease", "shrinks", "lower", "faster", "improves" };
constexpr std::array kRises = { "rises", "rise", "grows", "grow", "increases", "increase", "higher", "slower" };

std::string signedText(TimeNs ns, double fraction)
{
    return signedDuration(ns) + " (" + signedPercent(fraction) + ")";
}

} // namespace

std::optional<MetricPrediction> predictionIn(std::string_view hypothesis, const std::vector<MetricComparison>& metrics)
{
    const std::string text = lowered(hypothesis);
    std::optional<std::pair<std::size_t, std::size_t>> named; // (position after the name, metric)
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        std::size_t after = findWord(text, lowered(metrics[i].spec.name));
        if (after == std::string::npos && metrics[i].spec.kind == MetricKind::Step)
            after = findWord(text, "step time");
        if (after != std::string::npos && (!named || after < named->first))
            named = std::pair { after, i };
    }
    if (!named)
        return std::nullopt;
    MetricPrediction prediction;
    prediction.metric = named->second;
    std::size_t directionAt = std::string::npos;
    for (const auto& [words, verdict] :
        { std::pair { kFalls.data(), Verdict::Faster }, std::pair { kRises.data(), Verdict::Slower } }) {
        const std::size_t count = verdict == Verdict::Faster ? kFalls.size() : kRises.size();
        for (std::size_t w = 0; w < count; ++w) {
            const std::size_t end = findWord(text, words[w], named->first);
            if (end != std::string::npos && (directionAt == std::string::npos || end < directionAt)) {
                directionAt = end;
                prediction.direction = verdict;
            }
        }
    }
    if (directionAt == std::string::npos)
        return std::nullopt;
    const std::size_t p95 = findWord(text, "p95", named->first);
    const std::size_t p50 = findWord(text, "p50", named->first);
    prediction.p95 = p95 != std::string::npos && p95 < directionAt && (p50 == std::string::npos || p95 < p50);
    return prediction;
}

PredictionJudgement judgePrediction(const MetricPrediction& prediction, const std::vector<MetricComparison>& metrics)
{
    const MetricComparison& m = metrics[prediction.metric];
    const PercentileVerdict& v = prediction.p95 ? m.p95 : m.p50;
    const std::string figure = m.spec.name + (prediction.p95 ? " p95" : " p50");
    const char* predicted = prediction.direction == Verdict::Faster ? "fall" : "rise";
    if (v.verdict == prediction.direction)
        return { AnnotationStatus::Supported, figure + " moved as predicted (" + std::string(predicted) + ")" };
    if (v.verdict == Verdict::Faster || v.verdict == Verdict::Slower)
        return { AnnotationStatus::Refuted,
            figure + " moved the other way (predicted to " + predicted + ", " + std::string(verdictName(v.verdict))
                + ")" };
    return { AnnotationStatus::Inconclusive, figure + ": " + std::string(verdictName(v.verdict)) };
}

std::string sideEffectsText(const std::vector<MetricComparison>& metrics)
{
    std::string text;
    for (const MetricComparison& m : metrics) {
        if (!m.sideEffect)
            continue;
        for (const auto& [label, v] : { std::pair { "p50", &m.p50 }, std::pair { "p95", &m.p95 } }) {
            if (v->verdict == Verdict::Faster || v->verdict == Verdict::Slower)
                text += (text.empty() ? "" : "; ") + m.spec.name + " " + label + " "
                    + std::string(verdictName(v->verdict)) + " " + signedText(v->deltaNs, v->deltaFraction);
        }
    }
    return text.empty() ? "none" : text;
}

} // namespace gapscope
