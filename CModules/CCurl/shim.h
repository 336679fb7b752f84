#ifndef PLAYHEAD_CCURL_H
#define PLAYHEAD_CCURL_H
#include <curl/curl.h>
#endif
