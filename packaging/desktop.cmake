# Desktop integration of byoc-studio (.desktop file, icon, AppStream metadata, MIME type) and the
# CPack settings of the Debian package. Included from app/CMakeLists.txt next to the app target.
set(BYOC_APP_ID io.github.byoc_studio.ByocStudio)
set(BYOC_PACKAGING_DIR ${CMAKE_CURRENT_LIST_DIR})

install(FILES ${BYOC_PACKAGING_DIR}/${BYOC_APP_ID}.desktop DESTINATION share/applications)
install(FILES ${BYOC_PACKAGING_DIR}/${BYOC_APP_ID}.metainfo.xml DESTINATION share/metainfo)
install(FILES ${BYOC_PACKAGING_DIR}/${BYOC_APP_ID}.mime.xml DESTINATION share/mime/packages
        RENAME ${BYOC_APP_ID}.xml)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/byoc-studio.svg
        DESTINATION share/icons/hicolor/scalable/apps RENAME ${BYOC_APP_ID}.svg)

set(CPACK_PACKAGE_NAME byoc-studio)
set(CPACK_PACKAGE_VENDOR "BYOC Studio")
set(CPACK_PACKAGE_CONTACT "BYOC Studio maintainers <maintainers@byoc-studio.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
# The ccompiler codegen plugin compiles the C it generates with the system C compiler.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc | c-compiler")
include(CPack)
