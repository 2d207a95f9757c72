#include "uucore/signals.h"
