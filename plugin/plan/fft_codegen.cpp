// SPDX-License-Identifier: MIT
// The line FFT generator: straight-line GLSL per length.
#include "fft_codegen.h"

#include "fft_lengths.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace fftb
{

namespace
{

/// Rounds of butterflies per stage lineFftWorkgroupSize aims for: every invocation busy in every stage.
constexpr uint32_t kMaxRounds = 2;

uint32_t roundsOf(uint32_t length, uint32_t radix, uint32_t workgroupSize)
{
    return (length / radix + workgroupSize - 1) / workgroupSize;
}

std::string u(uint32_t v)
{
    return std::to_string(v) + "u";
}

std::string f(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", v);
    std::string s = text;
    if (s.find_first_of(".e") == std::string::npos)
        s += ".0";
    return s;
}

/// Writes straight-line GLSL into `text`, naming temporaries t1, t2, ... within one function.
class Emitter
{
  public:
    explicit Emitter(std::string& text) : text_(text) {}

    std::string temporary() { return "t" + std::to_string(++count_); }
    void line(const std::string& s) { text_ += "    " + s + "\n"; }
    /// Declares a temporary holding `expression`; returns its name.
    std::string let(const std::string& expression)
    {
        const std::string name = temporary();
        line("vec2 " + name + " = " + expression + ";");
        return name;
    }

    /// x exp(sign 2 pi i m / R); sign -1 forward, +1 inverse.
    std::string rotate(const std::string& x, uint32_t m, uint32_t radix, int sign)
    {
        m %= radix;
        if (m == 0)
            return x;
        if (2 * m == radix)
            return let("-" + x);
        // exp(sign i pi / 2) = sign i; exp(sign 3 i pi / 2) = -sign i. i z = (-z.y, z.x).
        if (4 * m == radix || 4 * m == 3 * radix)
        {
            const bool plusI = (4 * m == radix) == (sign > 0);
            return let(plusI ? "vec2(-" + x + ".y, " + x + ".x)" : "vec2(" + x + ".y, -" + x + ".x)");
        }
        const double angle = 2.0 * std::numbers::pi * m / radix;
        const std::string c = f(std::cos(angle)), s = f(sign * std::sin(angle));
        return let("vec2(" + x + ".x * " + c + " - " + x + ".y * " + s + ", " + x + ".x * " + s + " + " + x + ".y * " +
                   c + ")");
    }

    /// The DFT of xs (natural order in and out) with exp(sign 2 pi i k n / R).
    std::vector<std::string> dft(const std::vector<std::string>& xs, int sign)
    {
        const uint32_t radix = uint32_t(xs.size());
        if (radix == 1)
            return xs;
        if (radix == 2)
            return {let(xs[0] + " + " + xs[1]), let(xs[0] + " - " + xs[1])};
        if (radix == 3 || radix == 5 || radix == 7)
            return oddDft(xs, sign);
        // Decimation in time, R = R1 R2: X[k1 + R1 k2] = sum_n2 W_R^(n2 k1) W_R2^(n2 k2) sum_n1 x[R2 n1 + n2] W_R1^(n1
        // k1).
        const uint32_t r1 = radix % 4 == 0 && radix != 4 ? 4 : 2, r2 = radix / r1;
        std::vector<std::vector<std::string>> inner(r2);
        for (uint32_t n2 = 0; n2 < r2; ++n2)
        {
            std::vector<std::string> column;
            for (uint32_t n1 = 0; n1 < r1; ++n1)
                column.push_back(xs[r2 * n1 + n2]);
            inner[n2] = dft(column, sign);
            for (uint32_t k1 = 0; k1 < r1; ++k1)
                inner[n2][k1] = rotate(inner[n2][k1], n2 * k1, radix, sign);
        }
        std::vector<std::string> out(radix);
        for (uint32_t k1 = 0; k1 < r1; ++k1)
        {
            std::vector<std::string> row;
            for (uint32_t n2 = 0; n2 < r2; ++n2)
                row.push_back(inner[n2][k1]);
            const std::vector<std::string> z = dft(row, sign);
            for (uint32_t k2 = 0; k2 < r2; ++k2)
                out[k1 + r1 * k2] = z[k2];
        }
        return out;
    }

  private:
    /// Radix 3, 5, 7: with a_n = x[n] + x[R-n], b_n = x[n] - x[R-n], X[k] = x0 + sum a_n cos(2 pi n k / R) +
    /// sign i sum b_n sin(2 pi n k / R) and X[R-k] with the sine term's sign flipped.
    std::vector<std::string> oddDft(const std::vector<std::string>& xs, int sign)
    {
        const uint32_t radix = uint32_t(xs.size()), pairs = radix / 2;
        std::vector<std::string> a, b;
        std::string sum = xs[0];
        for (uint32_t n = 1; n <= pairs; ++n)
        {
            a.push_back(let(xs[n] + " + " + xs[radix - n]));
            b.push_back(let(xs[n] + " - " + xs[radix - n]));
            sum += " + " + a.back();
        }
        std::vector<std::string> out(radix);
        out[0] = let(sum);
        for (uint32_t k = 1; k <= pairs; ++k)
        {
            std::string c = xs[0], s;
            for (uint32_t n = 1; n <= pairs; ++n)
            {
                const double angle = 2.0 * std::numbers::pi * n * k / radix;
                c += " + " + a[n - 1] + " * " + f(std::cos(angle));
                s += (n > 1 ? " + " : "") + b[n - 1] + " * " + f(std::sin(angle));
            }
            const std::string cv = let(c), sv = let(s);
            // sign i s = sign (-s.y, s.x).
            const std::string plus = "vec2(" + cv + ".x - " + sv + ".y, " + cv + ".y + " + sv + ".x)";
            const std::string minus = "vec2(" + cv + ".x + " + sv + ".y, " + cv + ".y - " + sv + ".x)";
            out[k] = let(sign > 0 ? plus : minus);
            out[radix - k] = let(sign > 0 ? minus : plus);
        }
        return out;
    }

    std::string& text_;
    uint32_t count_ = 0;
};

/// One line FFT's geometry.
struct Geometry
{
    uint32_t length = 0, workgroupSize = 0;
    std::vector<uint32_t> radices; ///< forward order
};

std::string slot(uint32_t e)
{
    return "fftSlot" + std::to_string(e);
}

/// "t + b T" for round b.
std::string butterflyIndex(uint32_t round, uint32_t workgroupSize)
{
    return round == 0 ? "t" : "(t + " + u(round * workgroupSize) + ")";
}

/// "if (j < M / R)" where round b of a stage of `radix` is partly past the stage's butterflies, else "".
std::string roundGuard(const Geometry& g, uint32_t radix, uint32_t round)
{
    const uint32_t butterflies = g.length / radix;
    if ((round + 1) * g.workgroupSize <= butterflies)
        return "";
    return "if (" + butterflyIndex(round, g.workgroupSize) + " < " + u(butterflies) + ")";
}

/// Emits `body` for each round of butterflies of a stage of `radix`, guarded where the round is partly past the
/// stage's butterflies; `body(round, j)`.
void forEachRound(Emitter& e, const Geometry& g, uint32_t radix,
                  const std::function<void(uint32_t, const std::string&)>& body)
{
    for (uint32_t b = 0; b < roundsOf(g.length, radix, g.workgroupSize); ++b)
    {
        const std::string j = butterflyIndex(b, g.workgroupSize);
        if (const std::string guard = roundGuard(g, radix, b); !guard.empty())
            e.line(guard);
        e.line("{");
        body(b, j);
        e.line("}");
    }
}

/// The function running the stages of `radices` (the forward's, or reversed for the inverse) on the slots.
std::string stagesFunction(const Geometry& g, const std::vector<uint32_t>& radices, bool inverse,
                           const std::function<uint32_t(uint32_t, uint32_t)>& stageTwiddleOffsetOf)
{
    std::string text = std::string("void ") + (inverse ? "fftInverse" : "fftForward") + "()\n{\n";
    Emitter e(text);
    const int sign = inverse ? 1 : -1;
    e.line("const uint t = gl_LocalInvocationID.x;");
    uint32_t span = 1;
    for (size_t s = 0; s < radices.size(); ++s)
    {
        const uint32_t radix = radices[s], butterflies = g.length / radix;
        if (s > 0)
        {
            // The previous stage's outputs to their positions (j - k) R' + k + r L', k = j mod L'.
            const uint32_t previous = radices[s - 1], previousSpan = span / previous;
            e.line("barrier();");
            forEachRound(e, g, previous,
                         [&](uint32_t b, const std::string& j)
                         {
                             e.line("const uint k = " + j + " % " + u(previousSpan) + ";");
                             e.line("const uint o = (" + j + " - k) * " + u(previous) + " + k;");
                             for (uint32_t r = 0; r < previous; ++r)
                                 e.line("fftShared[o + " + u(r * previousSpan) + "] = " + slot(b * previous + r) + ";");
                         });
            e.line("barrier();");
        }
        forEachRound(e, g, radix,
                     [&](uint32_t b, const std::string& j)
                     {
                         std::vector<std::string> xs;
                         for (uint32_t r = 0; r < radix; ++r)
                             xs.push_back(e.let(s == 0 ? slot(b * radix + r)
                                                       : "fftShared[" + j + " + " + u(r * butterflies) + "]"));
                         if (span > 1)
                         {
                             e.line("const uint k = " + j + " % " + u(span) + ";");
                             const uint32_t table = stageTwiddleOffsetOf(span, radix);
                             for (uint32_t r = 1; r < radix; ++r)
                             {
                                 const std::string w = e.let("twiddleTable[" + u(table + (r - 1) * span) + " + k]");
                                 const std::string wy = inverse ? "-" + w + ".y" : w + ".y";
                                 xs[r] = e.let("vec2(" + xs[r] + ".x * " + w + ".x - " + xs[r] + ".y * " + wy + ", " +
                                               xs[r] + ".x * " + wy + " + " + xs[r] + ".y * " + w + ".x)");
                             }
                         }
                         const std::vector<std::string> ys = e.dft(xs, sign);
                         for (uint32_t r = 0; r < radix; ++r)
                             e.line(slot(b * radix + r) + " = " + ys[r] + ";");
                     });
        span *= radix;
    }
    text += "}\n";
    return text;
}

/// A macro NAME(APPLY) expanding to APPLY(index, slot) for each slot of the layout whose stage has `radix` (slot b R +
/// r holds index t + b T + r N / R), guarded where a round is partly past the stage's butterflies.
std::string slotsMacro(const Geometry& g, uint32_t radix, const std::string& name)
{
    std::string text = "#define " + name + "(APPLY) { const uint t = gl_LocalInvocationID.x;";
    const uint32_t butterflies = g.length / radix;
    for (uint32_t b = 0; b < roundsOf(g.length, radix, g.workgroupSize); ++b)
    {
        const std::string j = butterflyIndex(b, g.workgroupSize), guard = roundGuard(g, radix, b);
        text += guard.empty() ? " {" : " " + guard + " {";
        for (uint32_t r = 0; r < radix; ++r)
            text += " APPLY((" + j + " + " + u(r * butterflies) + "), " + slot(b * radix + r) + ")";
        text += " }";
    }
    return text + " }\n";
}

} // namespace

std::vector<uint32_t> lineFftRadices(uint32_t length)
{
    uint32_t rest = length, twos = 0;
    for (; rest % 2 == 0; rest /= 2)
        ++twos;
    std::vector<uint32_t> stages;
    if (twos == 1)
        stages.push_back(2);
    else if (twos > 1)
    {
        stages.assign(twos / 3 - (twos % 3 == 1 ? 1 : 0), 8);
        if (twos % 3 == 1)
            stages.insert(stages.end(), {4, 4});
        else if (twos % 3 == 2)
            stages.push_back(4);
    }
    for (const uint32_t p : {3u, 5u, 7u})
        for (; rest % p == 0; rest /= p)
            stages.push_back(p);
    // Smallest first, the next smallest last, the rest largest first between them.
    std::sort(stages.begin(), stages.end());
    if (stages.size() > 2)
    {
        std::rotate(stages.begin() + 1, stages.begin() + 2, stages.end());
        std::sort(stages.begin() + 1, stages.end() - 1, std::greater<>());
    }
    return stages;
}

uint32_t lineFftWorkgroupSize(uint32_t length, uint32_t maxInvocations)
{
    const std::vector<uint32_t> radices = lineFftRadices(length);
    for (const uint32_t maxRounds : {kMaxRounds, length})
    {
        uint32_t best = 0;
        uint64_t bestSlots = 0;
        for (uint32_t t = 1; t <= std::min({length, kMaxWorkgroupSize, maxInvocations}); ++t)
        {
            uint64_t slots = 0;
            bool fits = true;
            for (const uint32_t r : radices)
            {
                const uint32_t rounds = roundsOf(length, r, t);
                fits = fits && rounds <= maxRounds && rounds * r <= FFTB_MAX_ELEMENTS_PER_INVOCATION;
                slots += uint64_t(rounds) * r * t;
            }
            if (fits && (best == 0 || slots <= bestSlots))
            {
                best = t;
                bestSlots = slots;
            }
        }
        if (best != 0)
            return best;
    }
    return 0;
}

LineFftCode generateLineFft(uint32_t length, uint32_t maxInvocations,
                            const std::function<uint32_t(uint32_t, uint32_t)>& stageTwiddleOffsetOf)
{
    Geometry g{length, lineFftWorkgroupSize(length, maxInvocations), lineFftRadices(length)};
    if (g.workgroupSize == 0)
        return {};
    uint32_t slots = 0;
    for (const uint32_t r : g.radices)
        slots = std::max(slots, roundsOf(length, r, g.workgroupSize) * r);
    std::string text = "// Generated: line FFT of " + std::to_string(length) + " points, radices";
    for (const uint32_t r : g.radices)
        text += " " + std::to_string(r);
    text += ", " + std::to_string(g.workgroupSize) + " invocations (plugin/plan/fft_codegen.h).\n";
    text += "const uint FFT_LENGTH = " + u(length) + ";\nconst uint FFT_WORKGROUP_SIZE = " + u(g.workgroupSize) +
            ";\nlayout(local_size_x = " + std::to_string(g.workgroupSize) + ") in;\n";
    text += "layout(set = 0, binding = " + std::to_string(FFTB_BINDING_TWIDDLES) +
            ", std430) readonly buffer Twiddles\n{\n    vec2 twiddleTable[];\n};\n";
    text += "shared vec2 fftShared[" + std::to_string(length) + "];\nvec2 " + slot(0);
    for (uint32_t e = 1; e < slots; ++e)
        text += ", " + slot(e);
    text += ";\n";
    std::vector<uint32_t> reversed(g.radices.rbegin(), g.radices.rend());
    text += stagesFunction(g, g.radices, false, stageTwiddleOffsetOf);
    text += stagesFunction(g, reversed, true, stageTwiddleOffsetOf);
    text += slotsMacro(g, g.radices.front(), "FFTB_FFT_TIME_SLOTS");
    text += slotsMacro(g, g.radices.back(), "FFTB_FFT_FREQUENCY_SLOTS");
    text += "#define FFTB_FFT_EACH_SLOT(APPLY)";
    for (uint32_t e = 0; e < slots; ++e)
        text += " APPLY(" + slot(e) + ")";
    text += "\n";
    return {text, g.workgroupSize};
}

} // namespace fftb
