// SPDX-License-Identifier: MIT
#include "app/models/duration_input.h"

#include <cmath>

namespace gapscope::models {

std::optional<TimeNs> parseDurationInput(const QString& text, TimeNs defaultUnitNs)
{
    QString compact = text.trimmed().toLower();
    compact.remove(QLatin1Char(' '));
    compact.replace(QChar(0x00b5), QLatin1Char('u')); // micro sign
    compact.replace(QChar(0x03bc), QLatin1Char('u')); // Greek mu
    struct Unit {
        const char* suffix;
        double ns;
    };
    // Longest suffixes first: "ms" and "ns" end with "s".
    static constexpr Unit kUnits[] = { { "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
    double scale = static_cast<double>(defaultUnitNs);
    for (const Unit& unit : kUnits) {
        if (compact.endsWith(QLatin1String(unit.suffix))) {
            compact.chop(static_cast<qsizetype>(std::char_traits<char>::length(unit.suffix)));
            scale = unit.ns;
            break;
        }
    }
    bool ok = false;
    const double value = compact.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < 0.0 || value * scale > 9.2e18)
        return std::nullopt;
    return static_cast<TimeNs>(std::llround(value * scale));
}

} // namespace gapscope::models
