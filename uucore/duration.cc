#include "uucore/duration.h"
