// SPDX-License-Identifier: MIT
// The one FFT of every pass: mixed-radix (8/4/2/3/5/7) Stockham autosort in shared memory, natural order in and out.
// Lines longer than shared memory holds (N > 4096) run one radix-R stage in registers first (the "virtual threads"
// of "FFT Bloom Optimized to the Bone"), then R sub-FFTs of length M = N / R in shared memory, one after the other
// (four-step FFT). A pass puts a line into its invocation's slots with fftPut, calls fftRun and reads the slots back
// with fftGet; the FFT knows nothing of images or buffers (the accessor pattern of "FFT Bloom Optimized to the Bone").
// Forward is unnormalized, exp(-2 pi i k n / N).
#ifndef FFTB_FFT_GLSL
#define FFTB_FFT_GLSL

layout(constant_id = FFTB_SPEC_FFT_LENGTH) const uint FFT_LENGTH = 2;
layout(constant_id = FFTB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 1;
layout(constant_id = FFTB_SPEC_TWIDDLE_OFFSET) const uint TWIDDLE_OFFSET = 0;
layout(constant_id = FFTB_SPEC_SHARED_LENGTH) const uint SHARED_LENGTH = 2;
layout(constant_id = FFTB_SPEC_SHARED_TWIDDLE_OFFSET) const uint SHARED_TWIDDLE_OFFSET = 0;
layout(constant_id = FFTB_SPEC_RADIX_0) const uint RADIX_0 = 1;
layout(constant_id = FFTB_SPEC_RADIX_1) const uint RADIX_1 = 1;
layout(constant_id = FFTB_SPEC_RADIX_2) const uint RADIX_2 = 1;
layout(constant_id = FFTB_SPEC_RADIX_3) const uint RADIX_3 = 1;
layout(constant_id = FFTB_SPEC_RADIX_4) const uint RADIX_4 = 1;
layout(constant_id = FFTB_SPEC_RADIX_5) const uint RADIX_5 = 1;
layout(constant_id = FFTB_SPEC_RADIX_6) const uint RADIX_6 = 1;
layout(constant_id = FFTB_SPEC_RADIX_7) const uint RADIX_7 = 1;
layout(local_size_x_id = FFTB_SPEC_WORKGROUP_SIZE) in;

// Slots per invocation: slot e holds line position fftTimeIndex(e) or frequency fftFrequencyIndex(e), which may be
// >= FFT_LENGTH in the last slot when WORKGROUP_SIZE does not divide FFT_LENGTH (lines in shared memory only).
const uint ELEMENTS = (FFT_LENGTH + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
// Registers a stage holds per invocation: ceil(M / (R * T)) butterflies of R elements <= M / T + R.
const uint STAGE_REGISTERS = FFTB_MAX_ELEMENTS_PER_INVOCATION + 8u;
// Long lines: the radix R of the register stage (1 when the line fits shared memory) and the slots of one sub-line
// (the host makes WORKGROUP_SIZE divide SHARED_LENGTH).
const uint SPLIT_RADIX = FFT_LENGTH / SHARED_LENGTH;
const uint SUB_ELEMENTS = SHARED_LENGTH / WORKGROUP_SIZE;

layout(set = 0, binding = FFTB_BINDING_TWIDDLES, std430) readonly buffer Twiddles
{
    vec2 twiddleTable[];
};

// Structure of arrays: real and imaginary parts in separate arrays avoid two-way bank conflicts.
shared float fftRe[SHARED_LENGTH];
shared float fftIm[SHARED_LENGTH];

// Long lines live in registers: slot e holds position t + e T (time layout), or frequency
// R (t + (e mod S) T) + e / S with S = SUB_ELEMENTS after a forward FFT (frequency layout, see fftFrequencyIndex).
vec2 fftLine[FFTB_MAX_ELEMENTS_PER_INVOCATION];

vec2 cmul(vec2 a, vec2 b)
{
    return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

vec2 conjugate(vec2 a)
{
    return vec2(a.x, -a.y);
}

// exp(-2 pi i m / L) from the table of length L <= 4096 starting at `offset`, m < L; conjugated when inverse.
vec2 tableTwiddle(uint offset, uint m, bool inverse)
{
    const vec2 w = twiddleTable[offset + m];
    return inverse ? conjugate(w) : w;
}

// exp(-2 pi i a / L) for any FFT length L and a < L, from its table at `offset`; conjugated when inverse. Lengths
// past 4096 multiply a fine and a coarse entry (fftb_shared.h): two fp32 roundings instead of one.
vec2 anyTableTwiddle(uint offset, uint length, uint a, bool inverse)
{
    if (length <= FFTB_MAX_SHARED_FFT_LENGTH)
        return tableTwiddle(offset, a, inverse);
    const vec2 w = cmul(twiddleTable[offset + a % FFTB_TWIDDLE_FINE_ELEMENTS],
                        twiddleTable[offset + FFTB_TWIDDLE_FINE_ELEMENTS + a / FFTB_TWIDDLE_FINE_ELEMENTS]);
    return inverse ? conjugate(w) : w;
}

// exp(-2 pi i a / FFT_LENGTH), a < FFT_LENGTH; conjugated when inverse.
vec2 lineTwiddle(uint a, bool inverse)
{
    return anyTableTwiddle(TWIDDLE_OFFSET, FFT_LENGTH, a, inverse);
}

// exp(-2 pi i m / L) for a length L dividing SHARED_LENGTH, m < L, given stride = SHARED_LENGTH / L (the table's
// entries per step of m); conjugated when inverse.
vec2 twiddle(uint m, uint stride, bool inverse)
{
    return tableTwiddle(SHARED_TWIDDLE_OFFSET, m * stride, inverse);
}

void fftSharedPut(uint i, vec2 z)
{
    fftRe[i] = z.x;
    fftIm[i] = z.y;
}

vec2 fftSharedGet(uint i)
{
    return vec2(fftRe[i], fftIm[i]);
}

// The line position slot e of this invocation holds before a forward FFT and after an inverse one.
uint fftTimeIndex(uint e)
{
    return gl_LocalInvocationID.x + e * WORKGROUP_SIZE;
}

// The frequency slot e holds after a forward FFT and before an inverse one. Long lines keep the four-step order:
// sub-FFT k (slots k S .. k S + S - 1) yields X[R q + k] at q = t + j T, so no exchange is needed to restore
// natural order, and an inverse FFT takes its input in the same slots.
uint fftFrequencyIndex(uint e)
{
    if (SPLIT_RADIX == 1u)
        return fftTimeIndex(e);
    return SPLIT_RADIX * (gl_LocalInvocationID.x + (e % SUB_ELEMENTS) * WORKGROUP_SIZE) + e / SUB_ELEMENTS;
}

// Slot e of this invocation; with a line in shared memory, valid only while fftTimeIndex(e) < FFT_LENGTH.
void fftPut(uint e, vec2 z)
{
    if (SPLIT_RADIX == 1u)
        fftSharedPut(fftTimeIndex(e), z);
    else
        fftLine[e] = z;
}

// Slots 0 .. ELEMENTS - 1 from held[e], those of positions in the line (fftPut). The way a pass fills a line: it
// loads every slot's element into `held` first, in a loop that neither stops at the line's end nor stores between
// loads, so that all the loads are in flight together, then puts them. Loading and putting slot by slot waits for
// each load in turn: the engine alone took 7-14 % longer (bench/results/load-first-h200.md).
void fftPutAll(vec2 held[FFTB_MAX_ELEMENTS_PER_INVOCATION])
{
    for (uint e = 0u; e < ELEMENTS; ++e)
        if (fftTimeIndex(e) < FFT_LENGTH)
            fftPut(e, held[e]);
}

vec2 fftGet(uint e)
{
    if (SPLIT_RADIX == 1u)
        return fftSharedGet(fftTimeIndex(e));
    return fftLine[e];
}

// Separates a pass's reads of one line from its writes of the next.
void fftSync()
{
    barrier();
}

// Multiplies by -i (forward) or +i (inverse): the quarter-turn twiddle of radix 4 and 8.
vec2 quarterTurn(vec2 a, bool inverse)
{
    return inverse ? vec2(-a.y, a.x) : vec2(a.y, -a.x);
}

void dft2(inout vec2 a, inout vec2 b)
{
    vec2 t = a - b;
    a += b;
    b = t;
}

// Radix-4 DFT of (a, b, c, d), output in natural order.
void dft4(inout vec2 a, inout vec2 b, inout vec2 c, inout vec2 d, bool inverse)
{
    dft2(a, c);
    dft2(b, d);
    d = quarterTurn(d, inverse);
    dft2(a, b);
    dft2(c, d);
    // (a, b, c, d) now hold X0, X2, X1, X3.
    vec2 x1 = c;
    c = b;
    b = x1;
}

void dft8(inout vec2 v[8], bool inverse)
{
    const float h = 0.70710678118654752;
    for (uint r = 0u; r < 4u; ++r)
        dft2(v[r], v[r + 4u]);
    // Twiddles exp(-+ 2 pi i r / 8) on the odd half before its radix-4.
    v[5] = inverse ? vec2(v[5].x - v[5].y, v[5].x + v[5].y) * h : vec2(v[5].x + v[5].y, v[5].y - v[5].x) * h;
    v[6] = quarterTurn(v[6], inverse);
    v[7] = inverse ? vec2(-v[7].x - v[7].y, v[7].x - v[7].y) * h : vec2(v[7].y - v[7].x, -v[7].x - v[7].y) * h;
    dft4(v[0], v[1], v[2], v[3], inverse);
    dft4(v[4], v[5], v[6], v[7], inverse);
    // Even outputs came from the first radix-4, odd ones from the second.
    vec2 e[4] = vec2[4](v[0], v[1], v[2], v[3]);
    for (uint r = 0u; r < 4u; ++r)
    {
        v[2u * r + 1u] = v[r + 4u];
    }
    for (uint r = 0u; r < 4u; ++r)
        v[2u * r] = e[r];
}

// cos and sin of 2 pi j / R for R = 3, 5, 7 (rows), j < R.
const float ODD_COS[3][7] = float[3][7](
    float[7](1.0, -0.5, -0.5, 0.0, 0.0, 0.0, 0.0),
    float[7](1.0, 0.30901699437494742, -0.80901699437494742, -0.80901699437494742, 0.30901699437494742, 0.0, 0.0),
    float[7](1.0, 0.62348980185873353, -0.22252093395631440, -0.90096886790241913, -0.90096886790241913,
             -0.22252093395631440, 0.62348980185873353));
const float ODD_SIN[3][7] = float[3][7](
    float[7](0.0, 0.86602540378443865, -0.86602540378443865, 0.0, 0.0, 0.0, 0.0),
    float[7](0.0, 0.95105651629515357, 0.58778525229247313, -0.58778525229247313, -0.95105651629515357, 0.0, 0.0),
    float[7](0.0, 0.78183148246802981, 0.97492791218782862, 0.43388373911755812, -0.43388373911755812,
             -0.97492791218782862, -0.78183148246802981));

// Radix 3, 5 or 7 (Winograd-style pairing): with a_n = x[n] + x[R-n] and b_n = x[n] - x[R-n], n = 1 .. (R-1)/2,
// X[k] = x0 + sum_n a_n cos(2 pi n k / R) -+ i sum_n b_n sin(2 pi n k / R) and X[R-k] the same with the sine
// term's sign flipped: half the products of the direct sum. Called with a literal radix, so it unrolls.
void dftOdd(inout vec2 v[8], const uint radix, bool inverse)
{
    const uint row = radix / 2u - 1u;
    const uint pairs = radix / 2u;
    vec2 a[3], b[3];
    vec2 sum = v[0];
    for (uint n = 1u; n <= pairs; ++n)
    {
        a[n - 1u] = v[n] + v[radix - n];
        b[n - 1u] = v[n] - v[radix - n];
        sum += a[n - 1u];
    }
    const vec2 x0 = v[0];
    v[0] = sum;
    for (uint k = 1u; k <= pairs; ++k)
    {
        vec2 c = x0, s = vec2(0.0);
        for (uint n = 1u; n <= pairs; ++n)
        {
            const uint j = (n * k) % radix;
            c += a[n - 1u] * ODD_COS[row][j];
            s += b[n - 1u] * ODD_SIN[row][j];
        }
        // -i s (forward) or +i s (inverse) for X[k]; the opposite for X[R-k].
        const vec2 t = inverse ? vec2(-s.y, s.x) : vec2(s.y, -s.x);
        v[k] = c + t;
        v[radix - k] = c - t;
    }
}

void dftRadix(inout vec2 v[8], uint radix, bool inverse)
{
    if (radix == 8u)
        dft8(v, inverse);
    else if (radix == 4u)
        dft4(v[0], v[1], v[2], v[3], inverse);
    else if (radix == 2u)
        dft2(v[0], v[1]);
    else if (radix == 3u)
        dftOdd(v, 3u, inverse);
    else if (radix == 5u)
        dftOdd(v, 5u, inverse);
    else
        dftOdd(v, 7u, inverse);
}

// The twiddles w[r] = exp(-+2 pi i r k / L) of one butterfly, r = 1 .. R - 1 (L = s R divides SHARED_LENGTH, k < s,
// stride = SHARED_LENGTH / L): w[1], w[2] and w[4] from the table, the others their products (w[7] = w[1] w[2] w[4]),
// so a radix-8 butterfly reads 3 entries instead of 7 at the cost of at most two more fp32 roundings (fft_test checks
// the accuracy).
void stageTwiddles(uint k, uint stride, const uint radix, bool inverse, out vec2 w[8])
{
    w[0] = vec2(1.0, 0.0);
    w[1] = twiddle(k, stride, inverse);
    if (radix > 2u)
        w[2] = twiddle(2u * k, stride, inverse);
    if (radix > 3u)
        w[3] = cmul(w[1], w[2]);
    if (radix > 4u)
    {
        w[4] = twiddle(4u * k, stride, inverse);
        w[5] = cmul(w[1], w[4]);
        w[6] = cmul(w[2], w[4]);
        w[7] = cmul(w[3], w[4]);
    }
}

// One Stockham stage with span s and radix R (after E. Bainville, "OpenCL Fast Fourier Transform") of the
// N = SHARED_LENGTH elements in shared memory: butterfly j reads x[j + r N / R], twiddles by
// exp(-+2 pi i r (j mod s) / (s R)), and writes to (j / s) s R + (j mod s) + r s; R = 1 is no stage. Every invocation
// holds its butterflies in registers between the barrier after the reads and the writes, so one shared array
// suffices. R and s are specialization constants (sharedFft), so once the pipeline is specialized every loop has a
// constant trip count and unrolls, the butterflies stay in registers, and j mod s and the twiddle stride N / (s R)
// fold to constants (a radix known only at run time would index the arrays dynamically and put them in local memory).
void sharedStage(const uint span, const uint radix, bool inverse)
{
    if (radix == 1u)
        return;
    const uint butterflies = SHARED_LENGTH / radix;
    const uint perInvocation = (butterflies + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    vec2 v[STAGE_REGISTERS];
    for (uint b = 0u; b < perInvocation; ++b)
    {
        const uint j = gl_LocalInvocationID.x + b * WORKGROUP_SIZE;
        if (j < butterflies)
            for (uint r = 0u; r < radix; ++r)
                v[b * radix + r] = fftSharedGet(j + r * butterflies);
    }
    barrier();
    for (uint b = 0u; b < perInvocation; ++b)
    {
        const uint j = gl_LocalInvocationID.x + b * WORKGROUP_SIZE;
        if (j < butterflies)
        {
            const uint k = j % span;
            vec2 x[8];
            for (uint r = 0u; r < radix; ++r)
                x[r] = v[b * radix + r];
            if (span > 1u) // the first stage's twiddles are all 1
            {
                vec2 w[8];
                stageTwiddles(k, SHARED_LENGTH / (span * radix), radix, inverse, w);
                for (uint r = 1u; r < radix; ++r)
                    x[r] = cmul(x[r], w[r]);
            }
            dftRadix(x, radix, inverse);
            const uint base = (j - k) * radix + k;
            for (uint r = 0u; r < radix; ++r)
                fftSharedPut(base + r * span, x[r]);
        }
    }
    barrier();
}

// Transforms the N = SHARED_LENGTH elements in shared memory in place (a whole line, or one sub-line of a long line):
// the stages RADIX_0 .. RADIX_7 (plugin/plan/plan.h, radicesOf), each with its radix and span known when the pipeline
// is created. Written out rather than looped over, so the driver folds each stage's constants.
void sharedFft(bool inverse)
{
    barrier();
    const uint span1 = RADIX_0;
    const uint span2 = span1 * RADIX_1;
    const uint span3 = span2 * RADIX_2;
    const uint span4 = span3 * RADIX_3;
    const uint span5 = span4 * RADIX_4;
    const uint span6 = span5 * RADIX_5;
    const uint span7 = span6 * RADIX_6;
    sharedStage(1u, RADIX_0, inverse);
    sharedStage(span1, RADIX_1, inverse);
    sharedStage(span2, RADIX_2, inverse);
    sharedStage(span3, RADIX_3, inverse);
    sharedStage(span4, RADIX_4, inverse);
    sharedStage(span5, RADIX_5, inverse);
    sharedStage(span6, RADIX_6, inverse);
    sharedStage(span7, RADIX_7, inverse);
}

// The register stage of a long line, radix R across slots e = j + m S (positions n + m M, n = t + j T, all in this
// invocation because T divides M). Forward, decimation in frequency: sub-line k gets
// y_k[n] = exp(-2 pi i n k / N) sum_m x[n + m M] exp(-2 pi i m k / R), whose M-point FFT is X[R q + k]. Inverse, the
// transpose: twiddle sub-line k's inverse FFT by exp(+2 pi i n k / N), then an inverse radix R across k.
void registerStage(bool inverse)
{
    for (uint j = 0u; j < SUB_ELEMENTS; ++j)
    {
        const uint n = gl_LocalInvocationID.x + j * WORKGROUP_SIZE;
        vec2 x[8];
        for (uint m = 0u; m < SPLIT_RADIX; ++m)
            x[m] = fftLine[m * SUB_ELEMENTS + j];
        if (inverse)
            for (uint k = 1u; k < SPLIT_RADIX; ++k)
                x[k] = cmul(x[k], lineTwiddle(n * k, true));
        dftRadix(x, SPLIT_RADIX, inverse);
        if (!inverse)
            for (uint k = 1u; k < SPLIT_RADIX; ++k)
                x[k] = cmul(x[k], lineTwiddle(n * k, false));
        for (uint m = 0u; m < SPLIT_RADIX; ++m)
            fftLine[m * SUB_ELEMENTS + j] = x[m];
    }
}

// Transforms the line held in the slots: time layout in, frequency layout out (forward) or the reverse (inverse).
void fftRun(bool inverse)
{
    if (SPLIT_RADIX == 1u)
    {
        sharedFft(inverse);
        return;
    }
    if (!inverse)
        registerStage(false);
    // Each invocation writes and reads back only its own positions t + j T, so one sub-line's reads and the next
    // one's writes need no barrier between them; sharedFft opens with the barrier after the writes.
    barrier();
    for (uint k = 0u; k < SPLIT_RADIX; ++k)
    {
        for (uint j = 0u; j < SUB_ELEMENTS; ++j)
            fftSharedPut(gl_LocalInvocationID.x + j * WORKGROUP_SIZE, fftLine[k * SUB_ELEMENTS + j]);
        sharedFft(inverse);
        for (uint j = 0u; j < SUB_ELEMENTS; ++j)
            fftLine[k * SUB_ELEMENTS + j] = fftSharedGet(gl_LocalInvocationID.x + j * WORKGROUP_SIZE);
    }
    if (inverse)
        registerStage(true);
}

#endif
