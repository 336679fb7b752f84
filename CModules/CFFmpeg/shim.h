#ifndef PLAYHEAD_CFFMPEG_H
#define PLAYHEAD_CFFMPEG_H
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/samplefmt.h>
#include <libavutil/aes.h>
#include <libavutil/md5.h>
#include <libavutil/sha.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#endif
