#include "uucore/process.h"
