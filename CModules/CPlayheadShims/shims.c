#include "CPlayheadShims.h"
#include <libavutil/error.h>
#include <errno.h>

CURLcode ph_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode ph_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode ph_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
CURLcode ph_easy_setopt_write(CURL *h, CURLoption o, ph_write_fn fn) { return curl_easy_setopt(h, o, fn); }
CURLcode ph_easy_setopt_xferinfo(CURL *h, ph_xferinfo_fn fn) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, fn); }
CURLcode ph_easy_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
CURLcode ph_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *out) { return curl_easy_getinfo(h, i, out); }
CURLcode ph_easy_getinfo_ptr(CURL *h, CURLINFO i, void **out) { return curl_easy_getinfo(h, i, out); }
CURLcode ph_easy_getinfo_string(CURL *h, CURLINFO i, const char **out) { return curl_easy_getinfo(h, i, out); }
CURLMcode ph_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

int ph_averror(int e) { return AVERROR(e); }
int ph_averror_eof(void) { return AVERROR_EOF; }
int ph_averror_eagain(void) { return AVERROR(EAGAIN); }
int ph_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

#include <malloc.h>
int ph_malloc_trim(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}
