#include "uucore/signal_wait.h"
