/* Screened bit-parallel Levenshtein distances on AVX-512: the hot loop of biosem.levenshtein.index's scan.
 *
 * One call compares nq queries of equal length n with the pool strings lo .. hi - 1 (Myers 1999,
 * J. ACM 46(3), global distance and multi-word blocks after Hyyro 2003, with the pool string as the
 * pattern and the query as the text, one pool string per SIMD lane) and returns, sparsely, the pairs
 * whose distance is at most the query's limit. The algorithm and its contract are those of
 * biosem.levenshtein.kernels.screened_distances (the numba implementation, kept for machines without
 * AVX-512 and as the reference the tests compare this one with); what differs is the machine code:
 *
 *  - the bag-distance screen (Bartolini et al. 2002) runs on 64 lanes per instruction: per
 *    histogram bin the absolute differences of the uint8 counts are added with unsigned saturation
 *    (a saturated sum still bounds the distance from below), then compared with twice the limit;
 *  - the lanes that pass have their match masks compacted into contiguous lanes, one permute per 16
 *    (or 8) lanes and mask row, instead of a scalar gather;
 *  - the bit-vector state of up to 4 registers of lanes stays in registers across the query's
 *    characters (4 independent dependency chains per step), where the numba loop stores it every step;
 *    the three-input logic is vpternlog;
 *  - patterns over 32 characters are compared in a 32-cell diagonal band (Hyyro 2003, as
 *    biosem.levenshtein.kernels._band32) at 16 lanes per register wherever the query's limit allows one,
 *    otherwise at one (8 lanes), two (carries in registers) or more 64-bit words;
 *  - only the pairs within the limit are written out (query row, column, distance), so the caller
 *    never reads the cells the screen pruned.
 *
 * Exactness: a pair is left out only when its bag distance (a lower bound of the edit distance)
 * exceeds the limit; every distance returned is exact; the tests compare the rows with rapidfuzz and
 * with the numba kernels on every word width.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LANES 256      /* pool strings per block (their match masks stay in the L2 cache) */
#define BUCKETS 32     /* bins of the character histograms (biosem.levenshtein.kernels.BUCKETS) */
#define PAD 16         /* slack after each compacted row / output buffer for full-vector stores */
#define STRIDE (LANES + PAD)
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vpopcntdq,popcnt")))

/* A query whose pass share of a block exceeds this is compared with the whole block (compaction costs
 * a permute per 16 lanes, query symbol and mask word; a lane's distance a dozen operations per
 * character). The same threshold as the numba kernels' NUMBA_DENSE_SHARE (kernels.py), set higher
 * because compaction is cheaper here: they gather each passing lane's masks one at a time, at about
 * the cost of comparing the lane. Each value is tuned for its kernels (see docs/benchmarks.md). */
#define AVX512_DENSE_SHARE 0.8

typedef struct {
    const int32_t *query;   /* nq x n local symbol ids (n_local: absent from the pool) */
    int64_t nq, n;
    const int32_t *symbols; /* pool symbol ids (global), strings concatenated */
    const int64_t *starts;  /* n_pool + 1 offsets */
    int64_t lo, hi;
    const int32_t *local;   /* global symbol id -> local id, or -1 */
    int64_t n_local;
    const uint8_t *hist;    /* BUCKETS x n_pool, bin-major */
    int64_t n_pool;
    const uint8_t *qhist;   /* nq x BUCKETS */
    const int64_t *limit;   /* nq */
    int32_t *out_q, *out_c, *out_d;
    int64_t capacity;
} Call;

/* ---- kernels on compacted lanes: peq rows of STRIDE words, r lanes, results into d[0..r) ---- */

/* 16 results of 32-bit lanes (their pattern lengths lens[0..16)) to d[0..16): D[m][n] = n +
 * popcount(VP & low m bits) - popcount(VN & low m bits); sllv gives 0 for m = 32. */
AVX512 static inline void final32(__m512i vp, __m512i vn, const int32_t *lens, int64_t n, int32_t *d) {
    __m512i one = _mm512_set1_epi32(1);
    __m512i lm = _mm512_sub_epi32(_mm512_sllv_epi32(one, _mm512_loadu_si512(lens)), one);
    __m512i pos = _mm512_popcnt_epi32(_mm512_and_si512(vp, lm));
    __m512i neg = _mm512_popcnt_epi32(_mm512_and_si512(vn, lm));
    _mm512_storeu_si512(d, _mm512_add_epi32(_mm512_set1_epi32((int32_t)n), _mm512_sub_epi32(pos, neg)));
}

/* One query character on one register of lanes (Myers 1999 / Hyyro 2003), eleven operations with the
 * three-input ones as vpternlog: 0xBE = (a ^ b) | c, 0xF1 = a | ~(b | c). */
#define STEP(W, X, VP, VN)                                                                  \
    do {                                                                                    \
        __m512i x_ = _mm512_or_si512((X), VN);                                              \
        __m512i s_ = _mm512_add_epi##W(_mm512_and_si512(x_, VP), VP);                        \
        __m512i d0_ = _mm512_ternarylogic_epi##W(s_, VP, x_, 0xBE);                          \
        __m512i hp_ = _mm512_ternarylogic_epi##W(VN, d0_, VP, 0xF1);                         \
        __m512i hn_ = _mm512_and_si512(VP, d0_);                                            \
        __m512i xs_ = _mm512_or_si512(_mm512_slli_epi##W(hp_, 1), one);                     \
        VN = _mm512_and_si512(xs_, d0_);                                                    \
        VP = _mm512_ternarylogic_epi##W(_mm512_slli_epi##W(hn_, 1), xs_, d0_, 0xF1);          \
    } while (0)
#define STEP32(X, VP, VN) STEP(32, X, VP, VN)
#define STEP64(X, VP, VN) STEP(64, X, VP, VN)

AVX512 static inline __m512i lowmask64(__m512i bits) {
    /* (1 << bits) - 1 per 64-bit lane, bits clamped to 0 .. 64 (sllv gives 0 for 64). */
    __m512i one = _mm512_set1_epi64(1);
    bits = _mm512_max_epi64(_mm512_min_epi64(bits, _mm512_set1_epi64(64)), _mm512_setzero_si512());
    return _mm512_sub_epi64(_mm512_sllv_epi64(one, bits), one);
}

/* 8 int32 results of 64-bit lanes (their pattern lengths lens32[0..8)) to d[0..8). */
AVX512 static inline void final64(__m512i vp, __m512i vn, const int32_t *lens32, int64_t n, int32_t *d) {
    __m512i lens = _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)lens32));
    __m512i lm = lowmask64(lens);
    __m512i pos = _mm512_popcnt_epi64(_mm512_and_si512(vp, lm));
    __m512i neg = _mm512_popcnt_epi64(_mm512_and_si512(vn, lm));
    __m512i res = _mm512_add_epi64(_mm512_set1_epi64(n), _mm512_sub_epi64(pos, neg));
    _mm256_storeu_si256((__m256i *)d, _mm512_cvtepi64_epi32(res));
}

/* Run NAME_4 over r lanes 4 registers of PER lanes at a time, then NAME_1..3 over the rest. */
#define DISPATCH(NAME, PER, PARAMS, ...)                                                            \
    AVX512 static void NAME PARAMS {                                                                \
        int64_t t = 0;                                                                              \
        for (; r - t > 3 * PER; t += 4 * PER) NAME##_4(__VA_ARGS__);                                 \
        switch ((r - t + PER - 1) / PER) {                                                          \
            case 3: NAME##_3(__VA_ARGS__); break;                                                   \
            case 2: NAME##_2(__VA_ARGS__); break;                                                   \
            case 1: NAME##_1(__VA_ARGS__); break;                                                   \
            default: break;                                                                         \
        }                                                                                           \
    }

/* One-word kernels: patterns of at most 32 characters in 32-bit lanes (16 per register), of 33 to 64
 * in 64-bit lanes (8 per register). The lanes are taken U registers at a time (U independent
 * dependency chains per step; 4 while enough lanes remain, then as many as the rest needs), their
 * state kept in registers across the query's characters. */
#define KERNEL1W(BITS, PER, T, U)                                                                  \
    AVX512 static void kernel##BITS##_##U(const T *peq, const int32_t *q, int64_t n, int64_t t,       \
                                          const int32_t *lens, int32_t *d) {                         \
        const __m512i all = _mm512_set1_epi##BITS(-1), one = _mm512_set1_epi##BITS(1);                \
        __m512i vp[U], vn[U];                                                                         \
        for (int u = 0; u < U; u++) vp[u] = all, vn[u] = _mm512_setzero_si512();                     \
        for (int64_t j = 0; j < n; j++) {                                                            \
            const T *row = peq + (int64_t)q[j] * STRIDE + t;                                         \
            for (int u = 0; u < U; u++) STEP##BITS(_mm512_loadu_si512(row + PER * u), vp[u], vn[u]); \
        }                                                                                             \
        for (int u = 0; u < U; u++) final##BITS(vp[u], vn[u], lens + t + PER * u, n, d + t + PER * u); \
    }
KERNEL1W(32, 16, uint32_t, 1)
KERNEL1W(32, 16, uint32_t, 2)
KERNEL1W(32, 16, uint32_t, 3)
KERNEL1W(32, 16, uint32_t, 4)
KERNEL1W(64, 8, uint64_t, 1)
KERNEL1W(64, 8, uint64_t, 2)
KERNEL1W(64, 8, uint64_t, 3)
KERNEL1W(64, 8, uint64_t, 4)
DISPATCH(kernel32, 16, (const uint32_t *peq, const int32_t *q, int64_t n, int64_t r, const int32_t *lens, int32_t *d),
         peq, q, n, t, lens, d)
DISPATCH(kernel64, 8, (const uint64_t *peq, const int32_t *q, int64_t n, int64_t r, const int32_t *lens, int32_t *d),
         peq, q, n, t, lens, d)

/* Patterns of 65 to 128 characters: two 64-bit words per lane with the add and shift carries between
 * them in registers, 8 lanes per register, U registers at a time. peq holds 2 x rows rows. */
#define STEP2W(X0, X1, VP0, VP1, VN0, VN1)                                                  \
    do {                                                                                    \
        __m512i x_ = _mm512_or_si512((X0), VN0);                                            \
        __m512i t_ = _mm512_and_si512(x_, VP0);                                             \
        __m512i s_ = _mm512_add_epi64(t_, VP0);                                             \
        __m512i c_ = _mm512_maskz_mov_epi64(_mm512_cmplt_epu64_mask(s_, t_), one);         \
        __m512i d0_ = _mm512_ternarylogic_epi64(s_, VP0, x_, 0xBE);                          \
        __m512i hp_ = _mm512_ternarylogic_epi64(VN0, d0_, VP0, 0xF1);                        \
        __m512i hn_ = _mm512_and_si512(VP0, d0_);                                           \
        __m512i hpc_ = _mm512_srli_epi64(hp_, 63), hnc_ = _mm512_srli_epi64(hn_, 63);       \
        __m512i xs_ = _mm512_or_si512(_mm512_slli_epi64(hp_, 1), one);                      \
        VN0 = _mm512_and_si512(xs_, d0_);                                                   \
        VP0 = _mm512_ternarylogic_epi64(_mm512_slli_epi64(hn_, 1), xs_, d0_, 0xF1);           \
        x_ = _mm512_or_si512((X1), VN1);                                                    \
        s_ = _mm512_add_epi64(_mm512_add_epi64(_mm512_and_si512(x_, VP1), VP1), c_);        \
        d0_ = _mm512_ternarylogic_epi64(s_, VP1, x_, 0xBE);                                  \
        hp_ = _mm512_ternarylogic_epi64(VN1, d0_, VP1, 0xF1);                                \
        hn_ = _mm512_and_si512(VP1, d0_);                                                   \
        xs_ = _mm512_or_si512(_mm512_slli_epi64(hp_, 1), hpc_);                             \
        VN1 = _mm512_and_si512(xs_, d0_);                                                   \
        VP1 = _mm512_ternarylogic_epi64(_mm512_or_si512(_mm512_slli_epi64(hn_, 1), hnc_), xs_, d0_, 0xF1); \
    } while (0)

/* Two words: the sum of word 0 can carry into word 1 (t + vp overflows); word 1's own carry out is
 * dropped (beyond the pattern). The add of word 1 cannot overflow twice: (x & vp) + vp + carry
 * < 2^65. */
#define KERNEL2W(U)                                                                                 \
    AVX512 static void kernel2w_##U(const uint64_t *peq, int64_t rows, const int32_t *q, int64_t n,     \
                                    int64_t t, const int32_t *lens, int32_t *d) {                      \
        const __m512i all = _mm512_set1_epi64(-1), one = _mm512_set1_epi64(1);                          \
        __m512i vp0[U], vp1[U], vn0[U], vn1[U];                                                         \
        for (int u = 0; u < U; u++)                                                                     \
            vp0[u] = vp1[u] = all, vn0[u] = vn1[u] = _mm512_setzero_si512();                           \
        for (int64_t j = 0; j < n; j++) {                                                              \
            const uint64_t *row = peq + (int64_t)q[j] * STRIDE + t;                                    \
            const uint64_t *row1 = row + rows * STRIDE;                                                \
            for (int u = 0; u < U; u++)                                                                 \
                STEP2W(_mm512_loadu_si512(row + 8 * u), _mm512_loadu_si512(row1 + 8 * u), vp0[u], vp1[u], \
                       vn0[u], vn1[u]);                                                                 \
        }                                                                                               \
        for (int u = 0; u < U; u++) {                                                                   \
            __m512i lens64 = _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)(lens + t + 8 * u))); \
            __m512i lm0 = lowmask64(lens64), lm1 = lowmask64(_mm512_sub_epi64(lens64, _mm512_set1_epi64(64))); \
            __m512i acc = _mm512_add_epi64(                                                            \
                _mm512_set1_epi64(n),                                                                   \
                _mm512_add_epi64(_mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(vp0[u], lm0)),   \
                                                  _mm512_popcnt_epi64(_mm512_and_si512(vn0[u], lm0))),  \
                                 _mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(vp1[u], lm1)),   \
                                                  _mm512_popcnt_epi64(_mm512_and_si512(vn1[u], lm1))))); \
            _mm256_storeu_si256((__m256i *)(d + t + 8 * u), _mm512_cvtepi64_epi32(acc));                \
        }                                                                                               \
    }
KERNEL2W(1)
KERNEL2W(2)
KERNEL2W(3)
KERNEL2W(4)

DISPATCH(kernel2w, 8, (const uint64_t *peq, int64_t rows, const int32_t *q, int64_t n, int64_t r, const int32_t *lens,
                       int32_t *d),
         peq, rows, q, n, t, lens, d)

/* Patterns over 64 characters: `words` 64-bit words per lane (least significant first) with add and
 * shift carries between them; 8 lanes per register. peq holds words x (n_local + 1) rows. */
AVX512 static void kernel_words(const uint64_t *peq, int64_t rows, int64_t words, const int32_t *q, int64_t n,
                                int64_t r, const int32_t *lens, int32_t *d, __m512i *vp, __m512i *vn) {
    const __m512i all = _mm512_set1_epi64(-1), one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512();
    for (int64_t t = 0; t < r; t += 8) {
        for (int64_t w = 0; w < words; w++) {
            vp[w] = all;
            vn[w] = zero;
        }
        for (int64_t j = 0; j < n; j++) {
            const uint64_t *row = peq + (int64_t)q[j] * STRIDE + t;
            __m512i add_c = zero, hp_c = one, hn_c = zero;
            for (int64_t w = 0; w < words; w++) {
                __m512i p = vp[w], v = vn[w];
                __m512i x = _mm512_or_si512(_mm512_loadu_si512(row + w * rows * STRIDE), v);
                __m512i tt = _mm512_and_si512(x, p);
                __m512i s1 = _mm512_add_epi64(tt, p);
                __m512i s = _mm512_add_epi64(s1, add_c);
                __mmask8 c = _mm512_cmplt_epu64_mask(s1, tt) | _mm512_cmplt_epu64_mask(s, s1);
                add_c = _mm512_maskz_mov_epi64(c, one);
                __m512i d0 = _mm512_or_si512(_mm512_xor_si512(s, p), x);
                __m512i hp = _mm512_or_si512(v, _mm512_andnot_si512(_mm512_or_si512(d0, p), all));
                __m512i hn = _mm512_and_si512(p, d0);
                __m512i hps = _mm512_or_si512(_mm512_slli_epi64(hp, 1), hp_c);
                __m512i hns = _mm512_or_si512(_mm512_slli_epi64(hn, 1), hn_c);
                hp_c = _mm512_srli_epi64(hp, 63);
                hn_c = _mm512_srli_epi64(hn, 63);
                vn[w] = _mm512_and_si512(hps, d0);
                vp[w] = _mm512_or_si512(hns, _mm512_andnot_si512(_mm512_or_si512(hps, d0), all));
            }
        }
        __m512i lens64 = _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)(lens + t)));
        __m512i acc = _mm512_set1_epi64(n);
        for (int64_t w = 0; w < words; w++) {
            __m512i lm = lowmask64(_mm512_sub_epi64(lens64, _mm512_set1_epi64(64 * w)));
            acc = _mm512_add_epi64(acc, _mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(vp[w], lm)),
                                                         _mm512_popcnt_epi64(_mm512_and_si512(vn[w], lm))));
        }
        _mm256_storeu_si256((__m256i *)(d + t), _mm512_cvtepi64_epi32(acc));
    }
}

/* ---- banded kernel (Hyyro 2003): patterns over 32 characters at one 32-bit word per lane ------ */

/* Largest limit the band serves (biosem.levenshtein.kernels.BAND_LIMIT): a path of at most `limit` edits between
 * strings whose lengths differ by d stays within diagonals ceil((d - limit) / 2) .. floor((d + limit) / 2),
 * limit + 1 of them, and the band holds 31. */
#define BAND_LIMIT 31
/* Blocks whose longest pattern exceeds this many characters use the band where it holds (below, the
 * 32-bit one-word kernel, which holds the whole pattern in one word too). Tuned on the SNOMED-scale
 * hard first terms at their bounds (see docs/benchmarks.md). */
#define BAND_FROM 32

/* biosem.levenshtein.kernels.band_offset: the band's bottom diagonal for lanes lens[0..count) against a query
 * of length n within `limit`; -1 where no band holds them all, -2 where no lane is within the limit. */
static int64_t band_offset(const int32_t *lens, int64_t count, int64_t n, int64_t limit) {
    int64_t d_min = INT64_MAX, d_max = INT64_MIN;
    for (int64_t lane = 0; lane < count; lane++) {
        int64_t d = lens[lane] - n;
        if (-limit <= d && d <= limit) {
            if (d < d_min) d_min = d;
            if (d > d_max) d_max = d;
        }
    }
    if (d_max < d_min) return -2;
    /* -limit <= d_min <= d_max <= limit: both halvings are of non-negative numbers (floor). */
    const int64_t bottom = (d_max + limit) / 2, top = -((limit - d_min) / 2);
    if (limit > BAND_LIMIT || bottom > 31 || top < bottom - 30 || d_min < bottom - 30) return -1;
    return bottom;
}

/* One query character on one register of band lanes: match mask X, vertical deltas VP / VN shifted one
 * row down the band, Z counting the steps whose bottom cell's diagonal delta is 0. */
#define BSTEP(X, VP, VN, Z)                                                                 \
    do {                                                                                    \
        __m512i x_ = (X);                                                                   \
        __m512i s_ = _mm512_add_epi32(_mm512_and_si512(x_, VP), VP);                         \
        __m512i d0_ = _mm512_ternarylogic_epi32(s_, VP, _mm512_or_si512(x_, VN), 0xBE);      \
        __m512i hp_ = _mm512_ternarylogic_epi32(VN, d0_, VP, 0xF1);                          \
        __m512i hn_ = _mm512_and_si512(d0_, VP);                                            \
        __m512i d1_ = _mm512_srli_epi32(d0_, 1);                                            \
        VP = _mm512_ternarylogic_epi32(hn_, d1_, hp_, 0xF1);                                 \
        VN = _mm512_and_si512(d1_, hp_);                                                    \
        Z = _mm512_add_epi32(Z, _mm512_srli_epi32(d0_, 31));                                \
    } while (0)

/* Distances within a 32-cell diagonal band (bottom diagonal `bottom`, band_offset of the lanes): exact
 * where at most `limit`, INT32_MAX for lanes beyond it in length; others beyond the limit are > limit
 * or inexact (the caller keeps only those within it). peq: words x rows x STRIDE 32-bit masks, bit
 * p & 31 of word p >> 5 for pattern position p. Before query character j the band's bit i is pattern
 * row i + bottom - 30 + j (biosem.levenshtein.kernels._band32). */
#define KERNELB(U)                                                                                  \
    AVX512 static void kernelb_##U(const uint32_t *peq, int64_t rows, const int32_t *q, int64_t n,      \
                                   int64_t t, const int32_t *lens, int64_t bottom, int64_t limit,     \
                                   int32_t *d) {                                                       \
        const __m512i init = _mm512_set1_epi32((int32_t)(0xFFFFFFFFu << (31 - bottom)));              \
        __m512i vp[U], vn[U], z[U];                                                                    \
        for (int u = 0; u < U; u++) vp[u] = init, vn[u] = z[u] = _mm512_setzero_si512();              \
        const int64_t lead = 31 - bottom; /* steps whose band starts above pattern row 0 */          \
        int64_t j = 0;                                                                                 \
        for (; j < n && j < lead; j++) {                                                               \
            const uint32_t *row = peq + (int64_t)q[j] * STRIDE + t;                                    \
            const __m128i left = _mm_cvtsi64_si128(lead - j);                                          \
            for (int u = 0; u < U; u++)                                                                \
                BSTEP(_mm512_sll_epi32(_mm512_loadu_si512(row + 16 * u), left), vp[u], vn[u], z[u]);   \
        }                                                                                              \
        for (; j < n; j++) {                                                                           \
            const int64_t start = j - lead;                                                            \
            const uint32_t *row = peq + ((start >> 5) * rows + q[j]) * STRIDE + t;                     \
            const uint32_t *nxt = row + rows * STRIDE;                                                 \
            const __m128i right = _mm_cvtsi64_si128(start & 31), left = _mm_cvtsi64_si128(32 - (start & 31)); \
            for (int u = 0; u < U; u++)                                                                \
                BSTEP(_mm512_or_si512(_mm512_srl_epi32(_mm512_loadu_si512(row + 16 * u), right),        \
                                      _mm512_sll_epi32(_mm512_loadu_si512(nxt + 16 * u), left)),        \
                      vp[u], vn[u], z[u]);                                                             \
        }                                                                                              \
        const __m512i one = _mm512_set1_epi32(1), below = _mm512_set1_epi32(0x7FFFFFFF);               \
        for (int u = 0; u < U; u++) {                                                                  \
            __m512i gap = _mm512_sub_epi32(_mm512_loadu_si512(lens + t + 16 * u), _mm512_set1_epi32((int32_t)n)); \
            __mmask16 far = _mm512_cmpgt_epi32_mask(_mm512_abs_epi32(gap), _mm512_set1_epi32((int32_t)limit)); \
            /* Rows m + 1 .. bottom + n are bits 31 - bottom + (m - n) .. 30. */                        \
            __m512i low = _mm512_sub_epi32(                                                            \
                _mm512_sllv_epi32(one, _mm512_add_epi32(gap, _mm512_set1_epi32((int32_t)(31 - bottom)))), one); \
            __m512i mask = _mm512_andnot_si512(low, below);                                            \
            __m512i dist = _mm512_add_epi32(                                                           \
                _mm512_sub_epi32(_mm512_set1_epi32((int32_t)(bottom + n)), z[u]),                      \
                _mm512_sub_epi32(_mm512_popcnt_epi32(_mm512_and_si512(vn[u], mask)),                   \
                                 _mm512_popcnt_epi32(_mm512_and_si512(vp[u], mask))));                 \
            _mm512_storeu_si512(d + t + 16 * u, _mm512_mask_mov_epi32(dist, far, _mm512_set1_epi32(INT32_MAX))); \
        }                                                                                              \
    }
KERNELB(1)
KERNELB(2)
KERNELB(3)
KERNELB(4)

DISPATCH(kernelb, 16, (const uint32_t *peq, int64_t rows, const int32_t *q, int64_t n, int64_t r, const int32_t *lens,
                       int64_t bottom, int64_t limit, int32_t *d),
         peq, rows, q, n, t, lens, bottom, limit, d)

/* ---- one call ---------------------------------------------------------------------------------- */

/* compactBITS: copy the rows `distinct` (-1 ended) of `words` words of a mask table (words x rows x
 * STRIDE, BITS-bit words) to their compacted copy, keeping the lanes set in pass[0..4) (64 lanes each),
 * PER lanes per permute: the permutation of each group of PER lanes (its passing lanes first) is made
 * once by a compress of the lane numbers, then applied to every row (vpermd / vpermq cost half a
 * vpcompress here). */
#define COMPACT(BITS, T, PER, MASK, IDS)                                                                     \
    AVX512 static void compact##BITS(const T *src, T *dst, int64_t words, int64_t rows, const int32_t *distinct, \
                                     const __mmask64 *pass) {                                                \
        __m512i idx[LANES / PER];                                                                            \
        int64_t at[LANES / PER], from[LANES / PER], groups = 0, o = 0;                                       \
        const __m512i ids = IDS;                                                                             \
        for (int64_t c = 0; c < LANES / PER; c++) {                                                          \
            MASK m = (MASK)(pass[c / (64 / PER)] >> (PER * (c % (64 / PER))));                               \
            if (!m) continue;                                                                                \
            idx[groups] = _mm512_maskz_compress_epi##BITS(m, ids);                                           \
            at[groups] = o;                                                                                  \
            from[groups++] = PER * c;                                                                        \
            o += __builtin_popcount(m);                                                                      \
        }                                                                                                    \
        for (const int32_t *u = distinct; *u >= 0; u++)                                                      \
            for (int64_t w = 0; w < words; w++) {                                                            \
                const T *s = src + (w * rows + *u) * STRIDE;                                                 \
                T *d = dst + (w * rows + *u) * STRIDE;                                                       \
                for (int64_t g = 0; g < groups; g++)                                                         \
                    _mm512_storeu_si512(d + at[g],                                                           \
                                        _mm512_permutexvar_epi##BITS(idx[g], _mm512_loadu_si512(s + from[g]))); \
            }                                                                                                \
    }
COMPACT(32, uint32_t, 16, __mmask16, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
COMPACT(64, uint64_t, 8, __mmask8, _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7))

/* Returns the number of rows written, -1 when the output buffers are too small, -2 when memory runs
 * out; *computed gets the number of distances computed. */
AVX512 static int64_t run(const Call *a, int64_t *computed) {
    const int64_t n = a->n, nq = a->nq, rows = a->n_local + 1;
    int64_t longest_all = 0, band_queries = 0;
    for (int64_t c = a->lo; c < a->hi; c++) {
        int64_t m = a->starts[c + 1] - a->starts[c];
        if (m > longest_all) longest_all = m;
    }
    for (int64_t qi = 0; qi < nq; qi++) band_queries += a->limit[qi] <= BAND_LIMIT;
    const int use_band = n > 0 && band_queries > 0;
    /* Two mask tables, each with its compacted copy: 32-bit words (the one-word kernel of patterns up
     * to 32 characters, and the band's words_b words) and 64-bit words (words_all words). The
     * absent symbol's rows (row n_local of each word) are never compacted into and stay zero. */
    const int64_t words_b = use_band ? (n - 1) / 32 + 2 : 1;
    const int64_t words_all = longest_all > 64 ? (longest_all + 63) / 64 : 1;
    const size_t b32 = (size_t)words_b * rows * STRIDE * 4, b64 = (size_t)words_all * rows * STRIDE * 8;
    const size_t size = 2 * b32 + 2 * b64 + 64 * (size_t)(words_all + 1) * 2 + 5 * (STRIDE + PAD) * 4
                        + (size_t)nq * (n + 1) * 4 + (size_t)nq * 5 * 8 + 64;
    uint8_t *mem = aligned_alloc(64, (size + 63) / 64 * 64);
    if (!mem) return -2;
    uint64_t *peq64 = (uint64_t *)mem, *cpeq64 = (uint64_t *)(mem + b64);
    uint32_t *peq32 = (uint32_t *)(mem + 2 * b64), *cpeq32 = (uint32_t *)(mem + 2 * b64 + b32);
    __m512i *vp = (__m512i *)(mem + 2 * b64 + 2 * b32);
    __m512i *vn = vp + words_all + 1;
    int32_t *lens = (int32_t *)(vn + words_all + 1);
    int32_t *clens = lens + STRIDE + PAD;
    int32_t *lane_of = clens + STRIDE + PAD;
    int32_t *res = lane_of + STRIDE + PAD;
    uint8_t *gap8 = (uint8_t *)(res + STRIDE + PAD);
    __mmask64 *pass_all = (__mmask64 *)(gap8 + (STRIDE + PAD) * 4); /* per query: the lanes passing the screen */
    int64_t *passed = (int64_t *)(pass_all + 4 * nq);                /* and how many */
    int32_t *distinct = (int32_t *)(passed + nq);
    memset(cpeq64, 0, b64);
    memset(cpeq32, 0, b32);
    memset(gap8, 255, (STRIDE + PAD) * 4);
    /* Each query's distinct symbols (local ids < n_local), -1 after the last. */
    {
        int32_t *seen = calloc((size_t)rows, sizeof(int32_t));
        if (!seen) {
            free(mem);
            return -2;
        }
        for (int64_t qi = 0; qi < nq; qi++) {
            int64_t u = 0;
            for (int64_t j = 0; j < n; j++) {
                int32_t k = a->query[qi * n + j];
                if (k < a->n_local && seen[k] != qi + 1) {
                    seen[k] = (int32_t)(qi + 1);
                    distinct[qi * (n + 1) + u++] = k;
                }
            }
            distinct[qi * (n + 1) + u] = -1;
        }
        free(seen);
    }
    int64_t out = 0, done = 0;
    const __m512i lane_ids0 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int64_t b = a->lo; b < a->hi; b += LANES) {
        const int64_t width = a->hi - b < LANES ? a->hi - b : LANES;
        int64_t longest = 0, shortest = INT64_MAX;
        for (int64_t lane = 0; lane < width; lane++) {
            int64_t m = a->starts[b + lane + 1] - a->starts[b + lane];
            lens[lane] = (int32_t)m;
            if (m > longest) longest = m;
            if (m < shortest) shortest = m;
            int64_t g = m > n ? m - n : n - m;
            gap8[lane] = (uint8_t)(g > 255 ? 255 : g);
        }
        for (int64_t lane = width; lane < STRIDE; lane++) lens[lane] = 0;
        const int wide = longest > 32;
        const int64_t words = longest > 64 ? (longest + 63) / 64 : 1;
        /* The 32-bit masks: one word for a block of short patterns, the band's words for a wide one
         * (when a query may use the band); the 64-bit masks of a wide block once a query needs them. */
        const int64_t w32 = !wide ? 1 : (use_band && longest > BAND_FROM ? words_b : 0);
        __mmask64 valid[4];
        for (int c = 0; c < 4; c++) {
            int64_t rest = width - 64 * c;
            valid[c] = rest >= 64 ? ~(__mmask64)0 : rest <= 0 ? 0 : (((__mmask64)1 << rest) - 1);
        }
        /* Screen every query first: a block no query passes needs no masks (near searches pass few). */
        int64_t passing = 0;
        const int64_t near = shortest > n ? shortest - n : (longest < n ? n - longest : 0);
        for (int64_t qi = 0; qi < nq; qi++) {
            const int64_t limit = a->limit[qi];
            __mmask64 *pass = pass_all + 4 * qi;
            int64_t r = 0;
            if (near > limit) { /* every lane differs in length by more than the limit */
                for (int c = 0; c < 4; c++) pass[c] = 0;
            } else if (limit >= 127) { /* the saturated screen cannot tell: every lane */
                for (int c = 0; c < 4; c++) pass[c] = valid[c];
            } else {
                /* Bag distance: (sum over bins of |count difference| + |length difference|) / 2, the
                 * sum saturated at 255 (still a lower bound). */
                __m512i acc[4];
                for (int c = 0; c < 4; c++) acc[c] = _mm512_loadu_si512(gap8 + 64 * c);
                const uint8_t *qh = a->qhist + qi * BUCKETS;
                for (int k = 0; k < BUCKETS; k++) {
                    const __m512i h = _mm512_set1_epi8((char)qh[k]);
                    const uint8_t *row = a->hist + (int64_t)k * a->n_pool + b;
                    for (int c = 0; c < 4; c++) {
                        if (!valid[c]) break;
                        __m512i p = _mm512_maskz_loadu_epi8(valid[c], row + 64 * c);
                        __m512i diff = _mm512_or_si512(_mm512_subs_epu8(p, h), _mm512_subs_epu8(h, p));
                        acc[c] = _mm512_adds_epu8(acc[c], diff);
                    }
                }
                const __m512i most = _mm512_set1_epi8((char)(limit < 0 ? 0 : 2 * limit));
                for (int c = 0; c < 4; c++)
                    pass[c] = limit < 0 ? 0 : (_mm512_cmple_epu8_mask(acc[c], most) & valid[c]);
            }
            for (int c = 0; c < 4; c++) r += __builtin_popcountll(pass[c]);
            passed[qi] = r;
            passing += r > 0;
        }
        if (!passing) continue;
        int built64 = 0;
        if (w32) {
            memset(peq32, 0, (size_t)w32 * rows * STRIDE * 4);
            const int64_t reach = 32 * w32;
            for (int64_t lane = 0; lane < width; lane++) {
                const int32_t *s = a->symbols + a->starts[b + lane];
                for (int64_t p = 0; p < lens[lane] && p < reach; p++) {
                    int32_t k = a->local[s[p]];
                    if (k >= 0) peq32[((p >> 5) * rows + k) * STRIDE + lane] |= (uint32_t)1 << (p & 31);
                }
            }
        }
        for (int64_t qi = 0; qi < nq; qi++) {
            const int64_t limit = a->limit[qi], r = passed[qi];
            const __mmask64 *pass = pass_all + 4 * qi;
            if (r == 0) continue;
            const int32_t *qrow = a->query + qi * n;
            const int64_t bottom = wide && w32 && limit <= BAND_LIMIT ? band_offset(lens, width, n, limit) : -1;
            const int band = bottom >= 0;
            if (wide && !band && !built64) {
                memset(peq64, 0, (size_t)words * rows * STRIDE * 8);
                for (int64_t lane = 0; lane < width; lane++) {
                    const int32_t *s = a->symbols + a->starts[b + lane];
                    for (int64_t p = 0; p < lens[lane]; p++) {
                        int32_t k = a->local[s[p]];
                        if (k >= 0) peq64[((p >> 6) * rows + k) * STRIDE + lane] |= (uint64_t)1 << (p & 63);
                    }
                }
                built64 = 1;
            }
            const int use32 = !wide || band;
            const int64_t use_words = !wide ? 1 : (band ? words_b : words);
            const int32_t *use_lens = lens;
            int64_t count = width;
            const uint32_t *m32 = peq32;
            const uint64_t *m64 = peq64;
            if (r > AVX512_DENSE_SHARE * width) { /* compaction would cost more than the lanes it saves */
                for (int64_t t = 0; t < width; t += 16)
                    _mm512_storeu_si512(lane_of + t, _mm512_add_epi32(lane_ids0, _mm512_set1_epi32((int32_t)t)));
            } else { /* compact the passing lanes: their lengths, lane numbers and masks */
                int64_t t = 0;
                for (int64_t c16 = 0; c16 < LANES / 16; c16++) {
                    __mmask16 m = (__mmask16)(pass[c16 >> 2] >> (16 * (c16 & 3)));
                    if (!m) continue;
                    _mm512_storeu_si512(clens + t, _mm512_maskz_compress_epi32(m, _mm512_loadu_si512(lens + 16 * c16)));
                    _mm512_storeu_si512(lane_of + t, _mm512_maskz_compress_epi32(
                                                         m, _mm512_add_epi32(lane_ids0, _mm512_set1_epi32(16 * c16))));
                    t += __builtin_popcount(m);
                }
                if (use32)
                    compact32(peq32, cpeq32, use_words, rows, distinct + qi * (n + 1), pass);
                else
                    compact64(peq64, cpeq64, use_words, rows, distinct + qi * (n + 1), pass);
                m32 = cpeq32;
                m64 = cpeq64;
                use_lens = clens;
                count = r;
            }
            done += count;
            if (band)
                kernelb(m32, rows, qrow, n, count, use_lens, bottom, limit, res);
            else if (!wide)
                kernel32(m32, qrow, n, count, use_lens, res);
            else if (words == 1)
                kernel64(m64, qrow, n, count, use_lens, res);
            else if (words == 2)
                kernel2w(m64, rows, qrow, n, count, use_lens, res);
            else
                kernel_words(m64, rows, words, qrow, n, count, use_lens, res, vp, vn);
            /* Emit the pairs within the limit. */
            if (out + count + PAD > a->capacity) {
                free(mem);
                return -1;
            }
            const __m512i lim = _mm512_set1_epi32((int32_t)(limit > INT32_MAX - 1 ? INT32_MAX - 1 : limit));
            const __m512i col0 = _mm512_set1_epi32((int32_t)(b - a->lo));
            const __m512i qv = _mm512_set1_epi32((int32_t)qi);
            for (int64_t t = 0; t < count; t += 16) {
                __mmask16 live = count - t >= 16 ? 0xFFFF : (__mmask16)((1u << (count - t)) - 1);
                __m512i dv = _mm512_loadu_si512(res + t);
                __mmask16 m = _mm512_mask_cmple_epi32_mask(live, dv, lim);
                if (!m) continue;
                __m512i cv = _mm512_add_epi32(col0, _mm512_loadu_si512(lane_of + t));
                _mm512_storeu_si512(a->out_q + out, qv);
                _mm512_storeu_si512(a->out_c + out, _mm512_maskz_compress_epi32(m, cv));
                _mm512_storeu_si512(a->out_d + out, _mm512_maskz_compress_epi32(m, dv));
                out += __builtin_popcount(m);
            }
        }
    }
    free(mem);
    *computed = done;
    return out;
}

static int supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vpopcntdq");
}

static int get(Py_buffer *view, PyObject *obj, int writable, Py_ssize_t itemsize, Py_ssize_t count,
               const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    if (view->itemsize != itemsize || view->len < count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes of %zd-byte items", name,
                     count, itemsize, view->len, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *screened_pairs(PyObject *self, PyObject *args) {
    PyObject *o[10];
    Call a;
    long long nq, n, lo, hi, n_local, n_pool;
    if (!PyArg_ParseTuple(args, "OLLOOLLOLOLOOOOO", &o[0], &nq, &n, &o[1], &o[2], &lo, &hi, &o[3], &n_local, &o[4],
                          &n_pool, &o[5], &o[6], &o[7], &o[8], &o[9]))
        return NULL;
    if (!supported()) {
        PyErr_SetString(PyExc_RuntimeError, "this CPU lacks AVX-512 (F, BW, VL, DQ, VPOPCNTDQ)");
        return NULL;
    }
    Py_buffer v[10];
    int got = 0;
    a.nq = nq, a.n = n, a.lo = lo, a.hi = hi, a.n_local = n_local, a.n_pool = n_pool;
    if (lo < 0 || hi < lo || hi > n_pool || nq < 0 || n < 0 || n_local < 0) {
        PyErr_SetString(PyExc_ValueError, "bad range or sizes");
        return NULL;
    }
    Py_ssize_t cap;
    if (get(&v[0], o[0], 0, 4, nq * n, "query") < 0) goto fail;
    got++;
    if (get(&v[1], o[1], 0, 4, 0, "symbols") < 0) goto fail;
    got++;
    if (get(&v[2], o[2], 0, 8, n_pool + 1, "starts") < 0) goto fail;
    got++;
    if (get(&v[3], o[3], 0, 4, 0, "local") < 0) goto fail;
    got++;
    if (get(&v[4], o[4], 0, 1, BUCKETS * n_pool, "hist") < 0) goto fail;
    got++;
    if (get(&v[5], o[5], 0, 1, nq * BUCKETS, "query_hist") < 0) goto fail;
    got++;
    if (get(&v[6], o[6], 0, 8, nq, "limit") < 0) goto fail;
    got++;
    cap = 0;
    for (int i = 7; i < 10; i++) {
        if (get(&v[i], o[i], 1, 4, 0, "out") < 0) goto fail;
        got++;
        cap = i == 7 || v[i].len / 4 < cap ? v[i].len / 4 : cap;
    }
    a.query = v[0].buf, a.symbols = v[1].buf, a.starts = v[2].buf, a.local = v[3].buf, a.hist = v[4].buf;
    a.qhist = v[5].buf, a.limit = v[6].buf, a.out_q = v[7].buf, a.out_c = v[8].buf, a.out_d = v[9].buf;
    a.capacity = cap;
    int64_t rows, computed = 0;
    Py_BEGIN_ALLOW_THREADS
    rows = run(&a, &computed);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    if (rows == -2) return PyErr_NoMemory();
    /* rows -1: the output buffers filled up (the caller makes room and calls again). */
    return Py_BuildValue("LL", (long long)rows, (long long)computed);
fail:
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return NULL;
}

static PyObject *py_supported(PyObject *self, PyObject *args) { return PyBool_FromLong(supported()); }

static PyMethodDef methods[] = {
    {"screened_pairs", screened_pairs, METH_VARARGS,
     "screened_pairs(query, nq, n, symbols, starts, lo, hi, local, n_local, hist, n_pool, query_hist, limit, "
     "out_q, out_c, out_d) -> (rows, computed); rows -1 when the output buffers are too small"},
    {"supported", py_supported, METH_NOARGS, "True when this CPU runs the AVX-512 kernels."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_lev512",
                                    "AVX-512 screened Levenshtein kernels (see biosem.levenshtein.kernels).", -1, methods};

PyMODINIT_FUNC PyInit__lev512(void) { return PyModule_Create(&module); }
