/* weak_const_def.c -- the definition that replaces weak_const.c's weak U */
const int U = 8;
