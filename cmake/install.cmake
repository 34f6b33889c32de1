# install.cmake -- what `cmake --install` puts where, and the packages built
# from it: the pkg-config file, the CMake package (find_package(mixprec)),
# the uninstall target, the GCC plugin in GCC's own plugin directory
# (option), the Debian package (CPack).  Every file goes through an install
# rule or file(INSTALL), so that all of them are in install_manifest.txt,
# DESTDIR is honoured and `uninstall` removes them all.
include(CMakePackageConfigHelpers)

set(MP_PLUGIN_DIR ${CMAKE_INSTALL_LIBDIR}/mixprec)
set(MP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mixprec)

option(MIXPREC_INSTALL_GCC_PLUGIN_DIR
  "also install mixprec.so into GCC's plugin directory (gcc -print-file-name=plugin), so that -fplugin=mixprec works (the environment variable of the same name set to 1 at install time does the same)"
  OFF)

install(FILES include/mixprec.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/mixprec)
# mixprec-tune: the precision search of `#pragma mixprec(auto)` (docs/precision.md)
install(PROGRAMS scripts/mixprec-tune DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS mixprec mixprec_static EXPORT mixprecTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT mixprecTargets NAMESPACE mixprec:: DESTINATION ${MP_CMAKE_DIR})

# ---------------------------------------------------------------- pkg-config
# Written at install time so that `cmake --install build --prefix P` puts P
# in it; installed with file(INSTALL) (manifest, DESTDIR).  clang_plugin:
# the plugin for the default clang (mixprec-clang.so); clang19_plugin: the
# one for clang 19; a plugin not built leaves its line commented out ("#")
# and the variable empty.
set(MP_PC_CLANG "#")
set(MP_PC_CLANG19 "#")
set(MP_PC_CLANG19_FILE mixprec-clang19.so)
if(TARGET mixprec_clang)
  set(MP_PC_CLANG "")
endif()
if(TARGET mixprec_clang19)
  set(MP_PC_CLANG19 "")
elseif(TARGET mixprec_clang AND "${MIXPREC_CLANG_MAJOR}" STREQUAL "19")
  set(MP_PC_CLANG19 "")
  set(MP_PC_CLANG19_FILE mixprec-clang.so)
endif()
install(CODE "
  set(MP_PC_CLANG \"${MP_PC_CLANG}\")
  set(MP_PC_CLANG19 \"${MP_PC_CLANG19}\")
  set(MP_PC_CLANG19_FILE \"${MP_PC_CLANG19_FILE}\")
  set(MP_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/mixprec.pc.in\"
                 \"${PROJECT_BINARY_DIR}/pc-staging/mixprec.pc\" @ONLY)
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\"
       TYPE FILE FILES \"${PROJECT_BINARY_DIR}/pc-staging/mixprec.pc\")
")

# ------------------------------------------------------------- CMake package
# Plugin paths are relative to the package (PACKAGE_ variables): the
# installed tree may be moved or packaged.
execute_process(COMMAND ${CMAKE_C_COMPILER} -dumpversion
                OUTPUT_VARIABLE MP_CFG_GCC_MAJOR OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "^[0-9]+" MP_CFG_GCC_MAJOR "${MP_CFG_GCC_MAJOR}")
set(MP_CFG_PLUGIN_DIR ${MP_PLUGIN_DIR})
set(MP_CFG_CLANG_PLUGINS "")
if(TARGET mixprec_clang)
  list(APPEND MP_CFG_CLANG_PLUGINS "${MIXPREC_CLANG_MAJOR}=mixprec-clang.so")
endif()
foreach(major IN LISTS MIXPREC_CLANG_EXTRA_MAJORS)
  if(TARGET mixprec_clang${major})
    list(APPEND MP_CFG_CLANG_PLUGINS "${major}=mixprec-clang${major}.so")
  endif()
endforeach()
configure_package_config_file(cmake/mixprecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mixprecConfig.cmake
  INSTALL_DESTINATION ${MP_CMAKE_DIR}
  PATH_VARS MP_CFG_PLUGIN_DIR)
# 0.x: a new minor version may change the interface
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mixprecConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mixprecConfig.cmake
              ${PROJECT_BINARY_DIR}/mixprecConfigVersion.cmake
        DESTINATION ${MP_CMAKE_DIR})

# ------------------------------------------------ GCC's own plugin directory
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=plugin
                OUTPUT_VARIABLE GCC_PLUGIN_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
# gcc -fplugin=mixprec looks for mixprec.so in `gcc -print-file-name=plugin`.
# Under the install prefix (/usr for the Debian package) the path is kept
# relative to it, so that DESTDIR and CPack staging work.
install(CODE "
  if(${MIXPREC_INSTALL_GCC_PLUGIN_DIR} OR \"\$ENV{MIXPREC_INSTALL_GCC_PLUGIN_DIR}\" STREQUAL \"1\")
    set(gcc_dir \"${GCC_PLUGIN_DIR}\")
    string(FIND \"\${gcc_dir}/\" \"\${CMAKE_INSTALL_PREFIX}/\" at)
    if(at EQUAL 0)
      file(RELATIVE_PATH rel \"\${CMAKE_INSTALL_PREFIX}\" \"\${gcc_dir}\")
      set(gcc_dir \"\${CMAKE_INSTALL_PREFIX}/\${rel}\")
    endif()
    file(INSTALL DESTINATION \"\${gcc_dir}\" TYPE MODULE FILES \"$<TARGET_FILE:mixprec_gcc>\")
  endif()
")

# ------------------------------------------------------------------ uninstall
# Removes every file of install_manifest.txt (under DESTDIR when set), then
# the directories of mixprec's own that are left empty.
if(NOT TARGET uninstall)
  configure_file(cmake/uninstall.cmake.in ${PROJECT_BINARY_DIR}/mixprec-uninstall.cmake @ONLY)
  add_custom_target(uninstall
    COMMAND ${CMAKE_COMMAND} -P ${PROJECT_BINARY_DIR}/mixprec-uninstall.cmake
    COMMENT "Removing the files of install_manifest.txt")
endif()

# ------------------------------------------------------------ Debian package
# cpack -G DEB (in the build directory): mixprec_<version>_<arch>.deb,
# installed under /usr, with mixprec.so also in GCC's plugin directory.
set(CPACK_PACKAGE_NAME mixprec)
set(CPACK_PACKAGE_VENDOR "mixprec")
set(CPACK_PACKAGE_CONTACT "mixprec maintainers <mixprec@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "GCC and clang plugins running #pragma mixprec loop nests on low-precision kernels")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libisl23, libstdc++6, libgcc-s1")
# (mixprec-tune is a Python 3 script)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc-${MP_CFG_GCC_MAJOR}, pkg-config, python3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-14, clang-19")
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};mixprec;ALL;/")
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/mixprec-cpack-options.cmake)
# the Debian package puts the GCC plugin where -fplugin=mixprec finds it
file(WRITE ${PROJECT_BINARY_DIR}/mixprec-cpack-options.cmake
     "set(ENV{MIXPREC_INSTALL_GCC_PLUGIN_DIR} 1)\n")
include(CPack)
