/* mp_runtime.h -- internal declarations shared by runtime/ files. */
#ifndef MP_RUNTIME_H
#define MP_RUNTIME_H

/* Count one decision of generated code (stats.c). */
void mp_stats_note(int fast, int kernel);
/* Count one verification (verify mode): its worst |err| / bound, failed. */
void mp_stats_note_verify(double worst, int failed);

#endif
